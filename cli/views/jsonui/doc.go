// Package jsonui is the machine-readable UI of `-json` runs: one JSON
// object per line, as OpenTofu 1.10's streamed UI (version, diagnostics,
// planned changes and drift, change summaries, apply hooks, outputs).
//
// JSONView writes the messages; the engine's hooks reach it through the
// cli package, and EmitPlan turns a JSON plan document (read with
// engine/plan/planjson) into the plan's messages. Message wording and the
// shared payloads (diagnostics, summaries, progress lines) come from
// package views, so the human and JSON UIs say the same thing.
package jsonui
