// Package views is the small base the two UIs share: the human UI
// (cli/views/human) and the machine-readable JSON UI (cli/views/jsonui).
// It holds what both print the same way — diagnostics (as text with source
// excerpts, and as the JSON UI payload, with sensitive values redacted),
// values (FormatValue, output values), the plan and apply summary counts,
// the progress lines of apply and refresh, the actions as the UIs name
// them, and the plan modes.
//
// What people see matches OpenTofu 1.10 line for line apart from the
// product name: wording, line breaks (prose is wrapped where OpenTofu's
// is, measuring "tenet" as "OpenTofu"), plain diagnostics without colour.
//
// The UIs read a plan only as its JSON document, through
// engine/plan/planjson, never the engine's types. Commands, flags, prompts
// and choosing between human and JSON output belong to the cli package.
package views
