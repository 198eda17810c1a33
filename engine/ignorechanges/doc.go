// Package ignorechanges holds what planning and applying share of
// ignore_changes: the configured paths as the prepare rules read them
// (Paths, Path, InstanceKeyFact), and applying the paths the rules
// decided to a configuration value, taking them from the prior object
// (Apply).
//
// Which paths are ignored is decided by the Rego prepare stage (package
// rules); gathering its facts and checking the configured paths against
// the schema is planning's; re-planning at apply with the same decision
// is applying's.
package ignorechanges
