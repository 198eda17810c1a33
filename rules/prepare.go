package rules

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/zclconf/go-cty/cty"
)

// MapKey is a path step written as a string index (tags["Name"]): a map
// key, never an attribute. A plain string step is an attribute name, or a
// key when it meets a map.
type MapKey string

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

	// IgnoreChanges are the configured lifecycle.ignore_changes paths;
	// steps are string (attribute), int (index) or MapKey.
	IgnoreChanges [][]any
	IgnoreAll     bool

	// Config and Prior are shown to team rules only.
	Config cty.Value
	Prior  cty.Value
}

// Preparation is what the "prepare" stage decided for one instance.
type Preparation struct {
	IgnoreAll bool
	// Ignore lists the paths at which the configuration takes the prior
	// value, in the step form of [PrepareInstance.IgnoreChanges].
	Ignore     [][]any
	Provenance []Fired

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
	err := evalInChunks(ctx, len(batch), func(ctx context.Context, lo, hi int) error {
		return e.prepareChunk(ctx, run, runT, batch[lo:hi], out[lo:hi])
	})
	if err != nil {
		return nil, err
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
	var vb *valueBuilder
	if e.PrepareWanted() {
		vb = e.newValueBuilder()
	}
	for i := range batch {
		in := &batch[i]
		items := make([][2]*ast.Term, 0, 11)
		items = append(items,
			ast.Item(keyAddress, ast.StringTerm(in.Address)),
			ast.Item(keyResource, ast.StringTerm(in.Resource)),
			ast.Item(keyModule, ast.StringTerm(in.Module)),
			ast.Item(keyType, ast.StringTerm(in.Type)),
			ast.Item(keyName, ast.StringTerm(in.Name)),
			ast.Item(keyKey, keyTerm(in.Key)),
			ast.Item(keyHasPrior, ast.InternedTerm(in.HasPrior)),
			ast.Item(keyLifecycle, ast.ObjectTerm(
				ast.Item(keyIgnoreChanges, stepPathsTerm(in.IgnoreChanges)),
				ast.Item(keyIgnoreAll, ast.InternedTerm(in.IgnoreAll)),
			)),
		)
		if vb != nil {
			shown := &shownValues{}
			if !e.omit.config {
				shown.config, _ = vb.value(in.Config, e.omit.configAttrs)
				items = append(items, ast.Item(keyConfig, shown.config))
			}
			if !e.omit.prior {
				shown.prior, shown.priorMarked = vb.value(in.Prior, e.omit.priorAttrs)
				items = append(items, ast.Item(keyPrior, shown.prior))
			}
			out[i].shown = shown
		}
		terms[i] = ast.ObjectTerm(items...)
	}
	input := ast.NewObject(
		ast.Item(keyRun, runT),
		ast.Item(keyInstances, ast.ArrayTerm(terms...)),
	)
	rs, err := e.prepareQ.Eval(ctx, append([]rego.EvalOption{rego.EvalParsedInput(input), rego.EvalTime(run.Timestamp), rego.EvalGenerateJSON(rawTerm)}, zzOpts...)...)
	if err != nil {
		return fmt.Errorf("evaluating prepare rules: %w", err)
	}
	if len(rs) == 0 {
		return nil
	}
	res, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	if !ok {
		return fmt.Errorf("prepare rules returned %v, want an object", rs[0].Expressions[0].Value)
	}
	if set, ok := valueAt(res, keyIgnoreAll).(ast.Set); ok {
		err := set.Iter(func(t *ast.Term) error {
			i, err := indexOf(t, len(out))
			if err == nil {
				out[i].IgnoreAll = true
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("prepare rules: ignore_all: %w", err)
		}
	}
	err = eachIndexed(res, keyIgnore, len(out), func(i int, item *ast.Term) error {
		p, err := decodeStepPath(item)
		out[i].Ignore = append(out[i].Ignore, p)
		return err
	})
	if err != nil {
		return fmt.Errorf("prepare rules: %w", err)
	}
	return eachIndexed(res, keyFired, len(out), func(i int, item *ast.Term) error {
		f, err := e.decodeFired(item)
		out[i].Provenance = append(out[i].Provenance, f)
		return err
	})
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

// stepPathsTerm presents paths whose steps are string, int or MapKey.
func stepPathsTerm(paths [][]any) *ast.Term {
	if len(paths) == 0 {
		return emptyArray
	}
	out := make([]*ast.Term, len(paths))
	for i, p := range paths {
		steps := make([]*ast.Term, len(p))
		for j, s := range p {
			if k, ok := s.(MapKey); ok {
				steps[j] = ast.ObjectTerm(ast.Item(keyKeyStep, ast.StringTerm(string(k))))
				continue
			}
			steps[j] = keyTerm(s)
		}
		out[i] = ast.ArrayTerm(steps...)
	}
	return ast.ArrayTerm(out...)
}

// decodeStepPath reads a path of the form stepPathsTerm writes. A bare
// string is accepted as a one-step path, for team rules' convenience.
func decodeStepPath(t *ast.Term) ([]any, error) {
	if s, ok := t.Value.(ast.String); ok {
		return []any{string(s)}, nil
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
			out = append(out, MapKey(k))
		default:
			return nil, fmt.Errorf("path %v: step %v is neither a name, an index nor a key", t, s)
		}
	}
	return out, nil
}
