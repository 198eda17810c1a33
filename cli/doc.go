// Package cli is tenet's command line: cobra commands built by
// constructors (no globals, no init), flag parsing that accepts the tofu
// spelling (-out=FILE) as well as --out=FILE, and the glue that loads
// configuration and state, runs the engine, checks policies and renders
// the results through package cli/views.
//
// Commands return errors; the one os.Exit lives in main. Output goes to
// the command's configured writers so tests can capture it. A command
// that only groups subcommands fails on a missing or unknown one.
//
// The state commands (statecmd.go, statemv.go, statepush.go) reach the
// state through the small stateStore interface (statestore.go), which the
// local state file implements, so other backends can slot in.
//
// `test` (testcmd.go, testrun.go, testmock.go) runs the run blocks that
// config/testfile parses, each as a plan and maybe an apply on a state
// kept in memory, checks assertions through engine.Scope, and answers for
// mock providers and overrides by wrapping the providers it hands the
// engine. `console` (console.go) evaluates lines through the same Scope
// after a plan that neither refreshes nor reads data sources.
package cli
