package rules

import (
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The engine decides resources in dependency order, so a chain of resources
// (each reading the previous one's output) reaches Decide one instance at a
// time. One evaluation of the decision table costs a few hundred
// microseconds however small the chunk, because every row is its own
// comprehension. Without team rules the default rules read only an
// instance's facts, not its name, so single-instance decisions are
// remembered by those facts: a chain of similar resources evaluates the
// rules once per distinct combination.
//
// Remembered decisions have no findings (their text names the address);
// the memo is disabled when team rules are loaded (they may read anything)
// or when a decide rule other than errors/warnings reads a field the memo
// key leaves out (decideMemoSafe).

// decideMemoLimit bounds the memo: the key includes the instance key, so
// distinct keys could otherwise grow it without bound.
const decideMemoLimit = 4096

// decideMemoKey is everything the default decide rules read about a
// single-instance chunk, except the address (read only by findings).
type decideMemoKey struct {
	mode               string
	instMode           string
	key                any
	deposed            string
	hasConfig          bool
	configKnown        bool
	hasPrior           bool
	tainted            bool
	hasPlanned         bool
	plannedEqualsPrior bool
	requiresReplace    bool
	lifecycle          Lifecycle
	forceReplace       bool
	triggered          bool
	dependencyPending  bool
	orphan             Orphan
	removed            int8 // 0: none, 1: destroy = false, 2: destroy = true
}

type decideMemo struct {
	enabled bool
	m       sync.Map // decideMemoKey -> Decision
	size    atomic.Int64
}

// memoKey returns the key for a single instance, or false when its facts
// cannot be keyed.
func memoKey(run Run, in *Instance) (decideMemoKey, bool) {
	switch in.Key.(type) {
	case nil, int, int64, string:
	default:
		return decideMemoKey{}, false
	}
	k := decideMemoKey{
		mode:               run.Mode,
		instMode:           in.Mode,
		key:                in.Key,
		deposed:            in.Deposed,
		hasConfig:          in.HasConfig,
		configKnown:        in.ConfigKnown,
		hasPrior:           in.HasPrior,
		tainted:            in.Tainted,
		hasPlanned:         in.HasPlanned,
		plannedEqualsPrior: in.PlannedEqualsPrior,
		requiresReplace:    len(in.RequiresReplace) > 0,
		lifecycle:          in.Lifecycle,
		forceReplace:       in.ForceReplace,
		triggered:          in.Triggered,
		dependencyPending:  in.DependencyPending,
		orphan:             in.Orphan,
	}
	if in.Removed != nil {
		k.removed = 1 + int8(b2i(in.Removed.Destroy))
	}
	return k, true
}

func (m *decideMemo) get(k decideMemoKey) (Decision, bool) {
	d, ok := m.m.Load(k)
	if !ok {
		return Decision{}, false
	}
	return d.(Decision), true
}

func (m *decideMemo) put(k decideMemoKey, d Decision) {
	if len(d.Errors) > 0 || len(d.Warnings) > 0 || m.size.Load() >= decideMemoLimit {
		return
	}
	// Callers may append to the provenance: make that copy.
	d.Provenance = d.Provenance[:len(d.Provenance):len(d.Provenance)]
	if _, loaded := m.m.LoadOrStore(k, d); !loaded {
		m.size.Add(1)
	}
}

// unkeyedFields are instance and run fields the memo key leaves out.
var unkeyedFields = map[string]bool{
	"address": true, "resource": true, "module": true, "type": true, "name": true,
	"timestamp": true, "variables": true,
	"config": true, "prior": true, "planned": true,
}

// decideMemoSafe reports whether no rule of the decide package, other than
// the findings, refers to a field the memo key leaves out. It looks at
// every string step of every reference, which is stricter than needed.
func decideMemoSafe(c *ast.Compiler) bool {
	safe := true
	for _, m := range c.Modules {
		if m.Package.Path.String() != "data.tenet.decide" {
			continue
		}
		for _, r := range m.Rules {
			if name := ruleName(r); name == "errors" || name == "warnings" {
				continue
			}
			ast.WalkRefs(r, func(ref ast.Ref) bool {
				for _, t := range ref[1:] {
					if s, ok := t.Value.(ast.String); ok && unkeyedFields[string(s)] {
						safe = false
					}
				}
				return false
			})
		}
	}
	return safe
}
