package rules

import "testing"

// newReferenceEngine is an engine whose evaluator takes no shortcut: no
// decision is remembered by facts (decide_memo.go), no instance is left
// out by team-rule guards (guards.go) and every chunk is checked for
// conflicts (evaluator/decide.rego), so every instance of every batch is
// evaluated by the rules themselves. The differential tests compare the
// evaluator with it; chunking stays, since results never depend on it
// (TestDecideBatchOrder, TestPrepareLargeBatchKeepsOrder).
func newReferenceEngine(t testing.TB, team map[string]string) *Engine {
	e := newTestEngine(t, team) // returns once every stage has compiled
	e.memo.enabled = false
	e.guards.decide, e.guards.prepare = nil, nil
	e.checkAll = true
	return e
}
