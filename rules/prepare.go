package rules

import (
	"context"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/internal/provenance"
)

// PrepareInstance holds the facts the "prepare" stage needs about one
// managed resource instance that has a usable prior object.
type PrepareInstance struct {
	Address  string
	Resource string
	Module   string
	Type     string
	Name     string
	Key      any // nil, int or string

	HasPrior bool // a present, untainted prior object exists

	// IgnoreChanges are the configured lifecycle.ignore_changes paths. A
	// string index (tags["Name"]) is an IndexStep, an attribute or a key
	// written after a dot a GetAttrStep: the rules tell the two apart.
	IgnoreChanges []cty.Path
	IgnoreAll     bool

	// Config and Prior are shown to team rules only.
	Config cty.Value
	Prior  cty.Value
}

// Preparation is what the "prepare" stage decided for one instance.
type Preparation struct {
	IgnoreAll bool
	// Ignore lists the paths at which the configuration takes the prior
	// value, steps as in [PrepareInstance.IgnoreChanges].
	Ignore     []cty.Path
	Provenance []provenance.Rule

	// shown holds the values as the prepare stage presented them, for
	// Decide to reuse (see [Instance.Prepared]).
	shown *shownValues
}

// shownValues are the terms a stage presented for an instance's values.
type shownValues struct {
	config, prior *ast.Term
	// priorMarked: the prior object carried marks, so its term differs from
	// the one of the same object without them.
	priorMarked bool
}

// PrepareWanted reports whether the prepare stage can say anything about an
// instance without configured ignore_changes: only team rules can.
func (e *Engine) PrepareWanted() bool { return e.includeValues && !e.omit.prepare }

// Prepare evaluates the prepare stage for a batch and returns one
// preparation per instance, in order.
func (e *Engine) Prepare(ctx context.Context, run Run, batch []PrepareInstance) ([]Preparation, error) {
	out := make([]Preparation, len(batch))
	runT := runTerm(run)
	// Instances no rule can prepare are left out (guards.go); the others
	// are evaluated as a batch of their own. The guards are known once the
	// stage has compiled.
	if _, err := e.prepareQ.get(ctx); err != nil {
		return nil, err
	}
	sel := e.prepareSelection(run, batch)
	if len(sel) == 0 && sel != nil {
		return out, nil
	}
	evalBatch, evalOut := batch, out
	if sel != nil && len(sel) < len(batch) {
		evalBatch = make([]PrepareInstance, len(sel))
		for k, i := range sel {
			evalBatch[k] = batch[i]
		}
		evalOut = make([]Preparation, len(sel))
	}
	err := evalInChunks(ctx, len(evalBatch), func(ctx context.Context, lo, hi int) error {
		return e.prepareChunk(ctx, run, runT, evalBatch[lo:hi], evalOut[lo:hi])
	})
	if err != nil {
		return nil, err
	}
	if len(evalOut) != len(out) {
		for k, i := range sel {
			out[i] = evalOut[k]
		}
	}
	return out, nil
}

var (
	keyIgnoreChanges = ast.InternedTerm("ignore_changes")
	keyIgnoreAll     = ast.InternedTerm("ignore_all")
	keyIgnore        = ast.InternedTerm("ignore")
	keyKeyStep       = ast.InternedTerm("key")
)

func (e *Engine) prepareChunk(ctx context.Context, run Run, runT *ast.Term, batch []PrepareInstance, out []Preparation) error {
	terms := make([]*ast.Term, len(batch))
	vb := e.newValueBuilder()
	values := e.PrepareWanted()
	// The instances of a batch usually share their resource's lifecycle
	// settings (the same slice): they share its term too.
	var lc lifecycleMemo
	for i := range batch {
		in := &batch[i]
		vb.items = append(vb.items,
			ast.Item(keyAddress, ast.StringTerm(in.Address)),
			ast.Item(keyResource, vb.name(in.Resource)),
			ast.Item(keyModule, vb.name(in.Module)),
			ast.Item(keyType, vb.name(in.Type)),
			ast.Item(keyName, vb.name(in.Name)),
			ast.Item(keyKey, keyTerm(in.Key)),
			ast.Item(keyHasPrior, ast.InternedTerm(in.HasPrior)),
			ast.Item(keyLifecycle, lc.term(in.IgnoreChanges, in.IgnoreAll)),
		)
		if fields := e.omit.prepareFields; fields != nil {
			// Fields no rule names are left out (team.go).
			kept := vb.items[:0]
			for _, it := range vb.items {
				if name, ok := it[0].Value.(ast.String); !ok || fields[string(name)] {
					kept = append(kept, it)
				}
			}
			vb.items = kept
		}
		if values {
			shown := &shownValues{}
			if !e.omit.config {
				shown.config, _ = vb.value(in.Config, e.omit.configAttrs, nil)
			}
			if !e.omit.prior {
				if shown.config != nil && e.omit.configAttrs.sameAs(e.omit.priorAttrs) && presentsAlike(in.Config, in.Prior, e.omit.priorAttrs) {
					// What rules can see of the prior object is what they
					// see of the configuration (no change there).
					shown.prior = shown.config
				} else {
					shown.prior, shown.priorMarked = vb.value(in.Prior, e.omit.priorAttrs, presentedAs(in.Config, shown.config))
				}
			}
			if shown.config != nil {
				vb.items = append(vb.items, ast.Item(keyConfig, shown.config))
			}
			if shown.prior != nil {
				vb.items = append(vb.items, ast.Item(keyPrior, shown.prior))
			}
			out[i].shown = shown
		}
		terms[i] = vb.object(0)
	}
	input := ast.NewObject(
		ast.Item(keyRun, runT),
		ast.Item(keyInstances, ast.ArrayTerm(terms...)),
	)
	rs, err := e.evalStage(ctx, e.prepareQ, input, run.Timestamp)
	if err != nil {
		return evalError("prepare", err)
	}
	if len(rs) == 0 {
		return nil
	}
	res, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	if !ok {
		return fmt.Errorf("prepare rules returned %v, want an object", rs[0].Expressions[0].Value)
	}
	return e.decodePreparations(res, out)
}

var (
	keyIgnorePaths = ast.InternedTerm("ignore_paths")
	keyEquivalent  = ast.InternedTerm("equivalent")
)

// decodePreparations reads the prepare stage's result. Team elements
// {"value": [i, path], "rule": handle} add their path to what instance i
// ignores and themselves to its provenance, merged as the package's rules
// ignore and fired merge them: paths sorted and without duplicates, rule ids
// before team elements, each group sorted.
func (e *Engine) decodePreparations(res ast.Object, out []Preparation) error {
	n := len(out)
	if set, ok := valueAt(res, keyIgnoreAll).(ast.Set); ok {
		err := set.Iter(func(t *ast.Term) error {
			i, err := indexOf(t, n)
			if err == nil {
				out[i].IgnoreAll = true
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("prepare rules: ignore_all: %w", err)
		}
	}
	var paths, team [][]*ast.Term // by instance, allocated when needed
	addPath := func(i int, p *ast.Term) {
		if paths == nil {
			paths = make([][]*ast.Term, n)
		}
		paths[i] = append(paths[i], p)
	}
	err := eachIndexed(res, keyIgnore, n, func(i int, item *ast.Term) error {
		addPath(i, item)
		return nil
	})
	if err != nil {
		return fmt.Errorf("prepare rules: %w", err)
	}
	err = eachIndexed(res, keyFired, n, func(i int, item *ast.Term) error {
		f, err := e.decodeFired(item)
		out[i].Provenance = append(out[i].Provenance, f)
		return err
	})
	if err != nil {
		return fmt.Errorf("prepare rules: %w", err)
	}
	for _, point := range []struct {
		name string
		key  *ast.Term
	}{{"ignore_paths", keyIgnorePaths}, {"equivalent", keyEquivalent}} {
		set, ok := valueAt(res, point.key).(ast.Set)
		if !ok {
			continue
		}
		// A malformed element stops the plan (failclosed.go); sets iterate
		// in sorted order, so the one reported is always the same.
		err := set.Iter(func(el *ast.Term) error {
			obj, ok := el.Value.(ast.Object)
			if !ok {
				return fmt.Errorf("prepare rules: %s element %v is not a team element", point.name, el)
			}
			const want = "[i, path] with i the index of an instance in input.instances and path an array of steps (names, indices, {\"key\": k})"
			value, ok := valueAt(obj, keyValue).(*ast.Array)
			if !ok || value.Len() != 2 {
				return e.malformed(obj, point.name, want)
			}
			i, err := indexOf(value.Elem(0), n)
			if err != nil {
				return e.malformed(obj, point.name, want)
			}
			if _, err := decodeStepPath(value.Elem(1)); err != nil {
				return e.malformed(obj, point.name, want)
			}
			if team == nil {
				team = make([][]*ast.Term, n)
			}
			team[i] = append(team[i], el)
			addPath(i, value.Elem(1))
			return nil
		})
		if err != nil {
			return err
		}
	}
	for i := range out {
		if paths != nil && len(paths[i]) > 0 {
			for _, t := range sortedUnique(paths[i]) {
				p, err := decodeStepPath(t)
				if err != nil {
					return fmt.Errorf("prepare rules: %w", err)
				}
				out[i].Ignore = append(out[i].Ignore, p)
			}
		}
		if team != nil && len(team[i]) > 0 {
			for _, t := range sortedUnique(team[i]) {
				f, err := e.decodeFired(t)
				if err != nil {
					return fmt.Errorf("prepare rules: %w", err)
				}
				out[i].Provenance = append(out[i].Provenance, f)
			}
		}
	}
	return nil
}

// sortedUnique sorts terms in set order and drops duplicates.
func sortedUnique(ts []*ast.Term) []*ast.Term {
	if len(ts) < 2 {
		return ts
	}
	slices.SortFunc(ts, func(a, b *ast.Term) int { return a.Value.Compare(b.Value) })
	return slices.CompactFunc(ts, func(a, b *ast.Term) bool { return a.Value.Compare(b.Value) == 0 })
}

// lifecycleMemo remembers the last lifecycle term prepareChunk built.
type lifecycleMemo struct {
	paths     []cty.Path
	ignoreAll bool
	t         *ast.Term
}

func (m *lifecycleMemo) term(paths []cty.Path, ignoreAll bool) *ast.Term {
	same := m.t != nil && m.ignoreAll == ignoreAll && len(m.paths) == len(paths) &&
		(len(paths) == 0 || &m.paths[0] == &paths[0])
	if !same {
		m.paths, m.ignoreAll = paths, ignoreAll
		m.t = ast.ObjectTerm(
			ast.Item(keyIgnoreChanges, pathsTerm(paths)),
			ast.Item(keyIgnoreAll, ast.InternedTerm(ignoreAll)),
		)
	}
	return m.t
}

// eachIndexed calls fn for every [i, item] element of the set at key.
// Sets iterate in sorted order, so results are deterministic.
func eachIndexed(res ast.Object, key *ast.Term, n int, fn func(i int, item *ast.Term) error) error {
	set, ok := valueAt(res, key).(ast.Set)
	if !ok {
		return nil
	}
	return set.Iter(func(t *ast.Term) error {
		pair, ok := t.Value.(*ast.Array)
		if !ok || pair.Len() != 2 {
			return fmt.Errorf("%s element %v is not [index, item]", key, t)
		}
		i, err := indexOf(pair.Elem(0), n)
		if err != nil {
			return fmt.Errorf("%s element %v: %w", key, t, err)
		}
		return fn(i, pair.Elem(1))
	})
}

func indexOf(t *ast.Term, n int) (int, error) {
	num, ok := t.Value.(ast.Number)
	if !ok {
		return 0, fmt.Errorf("%v is not an instance index", t)
	}
	i, ok := num.Int()
	if !ok || i < 0 || i >= n {
		return 0, fmt.Errorf("%v is not a valid instance index", t)
	}
	return i, nil
}

// decodeStepPath reads a path of the form pathsTerm writes: the Rego
// terms of attrpath's step list. A bare string is accepted as a one-step
// path, for team rules' convenience.
func decodeStepPath(t *ast.Term) (cty.Path, error) {
	if s, ok := t.Value.(ast.String); ok {
		return attrpath.FromSteps([]any{string(s)})
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("path %v is not an array of steps", t)
	}
	out := make([]any, 0, arr.Len())
	for j := range arr.Len() {
		switch s := arr.Elem(j).Value.(type) {
		case ast.String:
			out = append(out, string(s))
		case ast.Number:
			n, ok := s.Int()
			if !ok {
				return nil, fmt.Errorf("path %v: step %v is not an integer index", t, s)
			}
			out = append(out, n)
		case ast.Object:
			k, ok := valueAt(s, keyKeyStep).(ast.String)
			if !ok {
				return nil, fmt.Errorf("path %v: step %v is not {\"key\": string}", t, s)
			}
			out = append(out, attrpath.MapKey(k))
		default:
			return nil, fmt.Errorf("path %v: step %v is neither a name, an index nor a key", t, s)
		}
	}
	return attrpath.FromSteps(out)
}
