// Package plan holds plans as data: the changes planning decided on, the
// states they were decided against, and their encodings — the JSON plan
// format of `show -json` (format 1.2, plus a "tenet" object with rule
// provenance and policy results) and tenet's saved plan files (a zip of
// JSON metadata and msgpack-encoded cty values, which keep unknowns).
//
// It also answers the questions callers ask of a finished plan: how the
// actions and reasons are spelled in JSON, the human plan and the
// machine-readable UI, what the summary line counts, and whether the plan
// is worth applying.
//
// It never plans anything itself (that is package engine) and knows
// nothing of configuration syntax: the engine hands it the configuration's
// JSON view ready-made. The prior state's JSON view comes from
// state/statejson.
package plan
