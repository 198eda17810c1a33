// Package views renders what people and programs see from tenet: the human
// plan (from the JSON plan document of `show -json`, format 1.2), the
// machine-readable UI stream of `-json` runs, apply progress lines, output
// values and diagnostics.
//
// It works from the JSON plan document (planjson.Document) and a small
// schema lookup rather than from engine types, so it stays decoupled from the engine: the engine
// (through hooks the cli package implements) calls the JSONView and
// HumanHooks methods, and the cli commands call RenderPlan, EmitPlanJSON,
// RenderDiagnostics and the output helpers. Commands, flags, prompts and
// choosing between human and JSON output belong to the cli package.
//
// What people see matches OpenTofu 1.10 line for line apart from the
// product name: wording, line breaks (prose is wrapped where OpenTofu's
// is, measuring "tenet" as "OpenTofu"), which unchanged values are shown
// or counted as hidden, jsonencode() for JSON strings, plain diagnostics
// without colour. The goldens under testdata/human, recorded from OpenTofu
// by scripts/record-human-goldens.sh, check it (cli/human_golden_test.go).
//
// Plans of 100,000 changes must render in a fraction of a second: the plan
// document is read by engine/plan/planjson (the one reader of the JSON
// plan), long change arrays are decoded and drawn on all cores, and the
// result is byte for byte what one goroutine would draw.
package views
