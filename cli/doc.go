// Package cli is tenet's command line: cobra commands built by
// constructors (no globals, no init), flag parsing that accepts the tofu
// spelling (-out=FILE) as well as --out=FILE, and the glue that loads
// configuration and state, runs the engine, checks policies and renders
// the results through package cli/views.
//
// Commands return errors; os.Exit lives in main, except for the forced
// exit at a second interrupt (interrupt.go), which runs its cleanup guards
// first. Output goes to the command's configured writers so tests can
// capture it. A command that only groups subcommands fails on a missing
// or unknown one.
//
// Main also owns what OpenTofu's main does around a command: SIGINT and
// SIGTERM (interrupt.go: the commands' context ends at the first, provider
// calls' at the second), TF_CLI_ARGS and TF_CLI_ARGS_<command>
// (envargs.go) and tenet's own log, TF_LOG/TF_LOG_CORE/TF_LOG_PATH
// (corelog.go).
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
//
// `login` and `logout` (login.go, loginoauth.go, logout.go) obtain and
// forget API tokens in ~/.terraform.d/credentials.tfrc.json (credfile.go),
// the file OpenTofu writes and the CLI configuration reads; they find a
// host's login.v1 and tfe.v2 services through internal/registryhttp.
// `metadata functions -json` (metadata.go) describes config/funcs's
// table, the functions the evaluator offers.
package cli
