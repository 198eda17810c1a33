// Package policy checks a finished plan against compliance policies:
// Rego modules with deny, warn and violation rules in the conftest style,
// evaluated over the plan JSON exactly as `tenet show -json` prints it (so
// policies written for `terraform show -json` / `tofu show -json` run
// unchanged).
//
// It owns loading policy sources (directories, single files, OPA bundles,
// the policy-set config file, data files), compiling them once in a
// sandbox, evaluating every policy rule with its enforcement level
// (advisory, soft-mandatory, hard-mandatory), overrides, the Rego unit
// test runner with coverage, and the report formats (human, JSON, JUnit
// XML, SARIF). It fails closed: a source that does not load (including a
// bundle past its size limits or holding links), a policy that errors or
// runs out of time, gives a blocked report, never a pass; and reports
// never print values the plan marks sensitive (redact.go).
//
// It does not plan, apply or read saved plan files: package cli turns a
// plan into JSON, calls [Load] and [Set.Check], stores the [Report] in the
// plan and decides whether apply may go on (checking a saved plan again
// at apply: a stored report is a record, not a verdict). Planning rules
// (package rules) decide what a plan does; policies only judge the
// result. Package engine never imports this package. Parsing, the
// sandbox's list of built-ins, OPA errors as diagnostics, METADATA and
// the test runner are internal/regokit's, shared with the planning rules.
package policy
