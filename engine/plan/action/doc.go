// Package action is the one vocabulary of planned actions: the Action type
// and every spelling of it (the Go names, the JSON plan's actions lists,
// the machine-readable UI's action, the planning rules' names and the
// words of the human progress lines).
//
// It is a package of its own, importing nothing, so that the plan model,
// the rules' callers, the engine's hooks and the UIs (which read a plan
// only as its JSON document) all name actions with the same type.
package action
