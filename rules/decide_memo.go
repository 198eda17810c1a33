package rules

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/regokit"
)

// The engine decides resources in dependency order, so a chain of resources
// (each reading the previous one's output) reaches Decide one instance at a
// time, and the instances of a counted resource reach it together, mostly
// with the same facts. One evaluation of the decision table costs a few hundred
// microseconds however small the chunk, because every row is its own
// comprehension. The default rules read only an instance's facts, not its
// name, so decisions are remembered by those facts: a chain of similar
// resources evaluates the rules once per distinct combination, and a batch
// once per distinct set (decideByFacts). With team rules, the elements
// they add for an instance are part of its facts (team rules reach the
// table only through its extension points).
//
// Remembered decisions have no findings (their text names the address);
// the memo is disabled when a decide rule other than errors/warnings reads
// a field the memo key leaves out (decideMemoSafe).

// decideMemoLimit bounds the memo: the key includes the instance key, so
// distinct keys could otherwise grow it without bound.
const decideMemoLimit = 4096

// decideMemoKey is everything the default decide rules read about an
// instance, except the address (read only by findings).
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
	inCheck            bool
	orphan             Orphan
	removed            int8 // 0: none, 1: destroy = false, 2: destroy = true
	// team lists the team extension-point elements for the instance, with
	// their index left out (decide_team.go).
	team string
}

type decideMemo struct {
	enabled bool
	// keyKindOnly: the rules read an instance key only to tell null, number
	// and string apart (keyReadByKindOnly), so the memo key holds the kind
	// and instances of one counted resource share their decisions.
	keyKindOnly bool
	// team: team rules add to the decide extension points; an instance's
	// facts then include the elements they add for it.
	team bool
	m    sync.Map // decideMemoKey -> Decision
	size atomic.Int64
}

// keyKind stands for an instance key in the memo key when only its kind
// matters.
type keyKind int8

const (
	keyKindNumber keyKind = iota + 1
	keyKindString
)

// key returns the memo key for an instance, or false when its facts
// cannot be keyed.
func (m *decideMemo) key(run Run, in *Instance) (decideMemoKey, bool) {
	key := in.Key
	switch in.Key.(type) {
	case nil:
	case int, int64:
		if m.keyKindOnly {
			key = keyKindNumber
		}
	case string:
		if m.keyKindOnly {
			key = keyKindString
		}
	default:
		return decideMemoKey{}, false
	}
	k := decideMemoKey{
		mode:               run.Mode,
		instMode:           in.Mode,
		key:                key,
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
		inCheck:            in.InCheck,
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
// the findings, refers to a field the memo key leaves out (reads is the
// read set of c). It looks at every string step of every reference, which
// is stricter than needed.
func decideMemoSafe(c *ast.Compiler, reads *regokit.Reads) bool {
	for _, m := range defaultDecideModules(c) {
		for _, r := range m.Rules {
			if name := ruleName(r); name == "errors" || name == "warnings" {
				continue
			}
			for _, ref := range reads.Rule(r).Refs {
				for _, t := range ref[1:] {
					if s, ok := t.Value.(ast.String); ok && unkeyedFields[string(s)] {
						return false
					}
				}
			}
		}
	}
	return true
}

// typeTests are the built-ins that read only the kind of their argument.
var typeTests = map[string]bool{"is_null": true, "is_number": true, "is_string": true}

// keyReadByKindOnly reports whether every read of an instance's key in the
// decide package (findings aside) only tests its kind: is_number(inst.key),
// or, as the compiler rewrites it, v = inst.key followed by tests of v.
func keyReadByKindOnly(c *ast.Compiler) bool {
	isKeyRef := func(t *ast.Term) bool {
		ref, ok := t.Value.(ast.Ref)
		if !ok {
			return false
		}
		for _, step := range ref[1:] {
			if s, ok := step.Value.(ast.String); ok && s == "key" {
				return true
			}
		}
		return false
	}
	var rules []*ast.Rule
	for _, m := range defaultDecideModules(c) {
		for _, r := range m.Rules {
			if name := ruleName(r); name != "errors" && name != "warnings" {
				rules = append(rules, r)
			}
		}
	}
	allowed := map[*ast.Term]bool{} // key references and aliases read only by kind
	aliases := map[ast.Var]bool{}   // v in v = inst.key
	for _, r := range rules {
		ast.WalkExprs(r, func(x *ast.Expr) bool {
			if !x.IsCall() {
				return false
			}
			ops := x.Operands()
			switch op := x.Operator().String(); {
			case (op == "eq" || op == "assign") && len(ops) == 2:
				for j, o := range ops {
					if v, ok := o.Value.(ast.Var); ok && isKeyRef(ops[1-j]) {
						aliases[v] = true
						allowed[o], allowed[ops[1-j]] = true, true
					}
				}
			case typeTests[op] && len(ops) == 1:
				allowed[ops[0]] = true
			}
			return false
		})
	}
	ok := true
	for _, r := range rules {
		ast.WalkTerms(r, func(t *ast.Term) bool {
			if allowed[t] {
				return false
			}
			if isKeyRef(t) {
				ok = false
			}
			if v, isVar := t.Value.(ast.Var); isVar && aliases[v] {
				ok = false
			}
			return !ok
		})
	}
	return ok
}

// defaultDecideModules are the compiled modules of the default decide
// package; team modules are left out (they reach the table only through
// its extension points).
func defaultDecideModules(c *ast.Compiler) []*ast.Module {
	var out []*ast.Module
	for _, m := range c.Modules {
		if m.Package.Path.String() == "data.tenet.decide" && strings.HasPrefix(m.Package.Location.File, defaultDir+"/planning/") {
			out = append(out, m)
		}
	}
	return out
}
