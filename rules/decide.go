package rules

import (
	"context"
	"fmt"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/tenetplan/tenet/internal/provenance"
)

// decideQuery reads what the decide rules decide for a chunk of instances
// (evaluator/decide.rego).
const decideQuery = "data.tenet.evaluator.decide.result"

// Chunk bounds for Decide: one Eval has a fixed cost of tens of microseconds,
// so chunks must be large enough to amortise it, and small enough that the
// evaluator's per-query state stays cheap and both cores get work.
const (
	minChunk = 100
	maxChunk = 500
)

// Decide chooses the action for every instance object of batch and returns
// the decisions in the same order. Large batches are evaluated in chunks on
// runtime.GOMAXPROCS goroutines.
func (e *Engine) Decide(ctx context.Context, run Run, batch []Instance) ([]Decision, error) {
	out := make([]Decision, len(batch))
	if len(batch) == 0 {
		return out, nil
	}
	// The memo's switch is set when the decision rules have compiled.
	if _, err := e.decide.get(ctx); err != nil {
		return nil, err
	}
	runTerm := runTerm(run)
	if e.memo.team {
		// Team elements are read and checked on their own (a malformed one
		// stops the plan), then handed to the table.
		te, err := e.decideTeamElements(ctx, run, runTerm, batch)
		if err != nil {
			return nil, err
		}
		if e.memo.enabled {
			return e.decideByFacts(ctx, run, runTerm, batch, te, out)
		}
		all := make([]int, len(batch))
		for i := range all {
			all[i] = i
		}
		if err := e.decideIndices(ctx, run, runTerm, batch, te, out, all); err != nil {
			return nil, err
		}
		return out, nil
	} else if e.memo.enabled {
		if len(batch) == 1 {
			return e.decideOne(ctx, run, batch, out)
		}
		return e.decideByFacts(ctx, run, runTerm, batch, nil, out)
	}
	err := evalInChunks(ctx, len(batch), func(ctx context.Context, lo, hi int) error {
		return e.decideChunk(ctx, run.Timestamp, runTerm, batch[lo:hi], out[lo:hi])
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decideOne decides a single instance, from the memo when an instance with
// the same facts was decided before.
func (e *Engine) decideOne(ctx context.Context, run Run, batch []Instance, out []Decision) ([]Decision, error) {
	k, keyed := e.memo.key(run, &batch[0])
	if keyed {
		if d, ok := e.memo.get(k); ok {
			out[0] = d
			return out, nil
		}
	}
	if err := e.decideChunk(ctx, run.Timestamp, runTerm(run), batch, out); err != nil {
		return nil, err
	}
	if keyed {
		e.memo.put(k, out[0])
	}
	return out, nil
}

// decideByFacts decides a batch by evaluating the rules once per distinct
// set of facts (see decide_memo.go): the instances of a counted resource
// usually share them, so a batch of thousands costs a handful of rows.
// Instances whose representative's decision carries findings (which name
// the address), or whose facts cannot be keyed, are evaluated themselves.
//
// te holds the team rules' elements when they extend the table (nil
// otherwise); they are part of an instance's facts.
func (e *Engine) decideByFacts(ctx context.Context, run Run, runT *ast.Term, batch []Instance, te *teamElements, out []Decision) ([]Decision, error) {
	keys := make([]decideMemoKey, len(batch))
	keyed := make([]bool, len(batch))
	firstOf := map[decideMemoKey]int{}
	var reps, rest []int // indices into batch
	for i := range batch {
		k, ok := e.memo.key(run, &batch[i])
		if te != nil {
			k.team = te.keys[i]
		}
		keys[i], keyed[i] = k, ok
		if !ok {
			rest = append(rest, i)
			continue
		}
		if _, seen := firstOf[k]; seen {
			continue
		}
		firstOf[k] = i
		if d, ok := e.memo.get(k); ok {
			out[i] = d
			continue
		}
		reps = append(reps, i)
	}
	if err := e.decideIndices(ctx, run, runT, batch, te, out, reps); err != nil {
		return nil, err
	}
	for _, i := range reps {
		e.memo.put(keys[i], out[i])
	}
	for i := range batch {
		if !keyed[i] {
			continue
		}
		first := firstOf[keys[i]]
		if first == i {
			continue
		}
		if d := out[first]; len(d.Errors) == 0 && len(d.Warnings) == 0 {
			// The engine may append to a decision's provenance.
			d.Provenance = d.Provenance[:len(d.Provenance):len(d.Provenance)]
			out[i] = d
			continue
		}
		rest = append(rest, i)
	}
	if err := e.decideIndices(ctx, run, runT, batch, te, out, rest); err != nil {
		return nil, err
	}
	return out, nil
}

// decideIndices evaluates the rules for batch[i], i in idx, in chunks.
func (e *Engine) decideIndices(ctx context.Context, run Run, runT *ast.Term, batch []Instance, te *teamElements, out []Decision, idx []int) error {
	if len(idx) == 0 {
		return nil
	}
	sub := make([]Instance, len(idx))
	var fr, pd [][]*ast.Term
	if te != nil {
		fr, pd = make([][]*ast.Term, len(idx)), make([][]*ast.Term, len(idx))
	}
	for j, i := range idx {
		sub[j] = batch[i]
		if te != nil {
			fr[j], pd[j] = te.forceReplace[i], te.preventDestroy[i]
		}
	}
	subOut := make([]Decision, len(idx))
	err := evalInChunks(ctx, len(sub), func(ctx context.Context, lo, hi int) error {
		if te != nil {
			return e.decideChunkWithTeam(ctx, run.Timestamp, runT, sub[lo:hi], fr[lo:hi], pd[lo:hi], subOut[lo:hi])
		}
		return e.decideChunk(ctx, run.Timestamp, runT, sub[lo:hi], subOut[lo:hi])
	})
	if err != nil {
		return err
	}
	for j, i := range idx {
		out[i] = subOut[j]
	}
	return nil
}

func (e *Engine) decideChunk(ctx context.Context, ts time.Time, run *ast.Term, batch []Instance, out []Decision) error {
	terms := make([]*ast.Term, len(batch))
	vb := e.newValueBuilder()
	values := e.decideValues()
	for i := range batch {
		terms[i] = e.instanceTerm(vb, &batch[i], values)
	}
	input := ast.NewObject(
		ast.Item(keyRun, run),
		ast.Item(keyInstances, ast.ArrayTerm(terms...)),
	)
	if e.checkAll {
		input.Insert(keyCheckAll, ast.InternedTerm(true))
	}
	rs, err := e.evalStage(ctx, e.decide, input, ts)
	if err != nil {
		return evalError("decision", err)
	}
	return e.decodeResult(rs, batch, out)
}

// decodeResult reads the decision table's result for a chunk.
func (e *Engine) decodeResult(rs rego.ResultSet, batch []Instance, out []Decision) error {
	if len(rs) == 0 {
		return fmt.Errorf("decision rules produced no result for %d instances starting at %s", len(batch), batch[0].Address)
	}
	res, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	if !ok {
		return fmt.Errorf("decision rules returned %v, want an object", rs[0].Expressions[0].Value)
	}
	if err := e.decodeDecisions(res, batch, out); err != nil {
		return err
	}
	return e.decodeIndexed(res, out)
}

// decodeDecisions reads the rules' decisions, [i, [row, action, reason]]
// for each instance; when an instance has none or several, the rules'
// conflicts name the rows at fault.
func (e *Engine) decodeDecisions(res ast.Object, batch []Instance, out []Decision) error {
	if conflicts, ok := valueAt(res, keyConflicts).(ast.Set); ok && conflicts.Len() > 0 {
		return e.conflictError(conflicts, batch)
	}
	decisions, ok := valueAt(res, keyDecisions).(ast.Set)
	if !ok || decisions.Len() != len(out) {
		return fmt.Errorf("decision rules returned %v, want one decision per instance", valueAt(res, keyDecisions))
	}
	return decisions.Iter(func(el *ast.Term) error {
		pair, ok := el.Value.(*ast.Array)
		var d *ast.Array
		if ok && pair.Len() == 2 {
			d, ok = pair.Elem(1).Value.(*ast.Array)
		}
		if !ok || d.Len() != 3 {
			return fmt.Errorf("decision %v is not [index, [row, action, reason]]", el)
		}
		num, _ := pair.Elem(0).Value.(ast.Number)
		i, ok := num.Int()
		if !ok || i < 0 || i >= len(out) || out[i].Provenance != nil {
			return fmt.Errorf("decision %v has no valid instance index", el)
		}
		out[i].Provenance = e.singleFired(str(d.Elem(0)))
		out[i].Action, out[i].Reason = str(d.Elem(1)), str(d.Elem(2))
		return nil
	})
}

// conflictError reports the first instance decided by no row or by
// several.
func (e *Engine) conflictError(conflicts ast.Set, batch []Instance) error {
	first := conflicts.Sorted().Elem(0)
	c, ok := first.Value.(*ast.Array)
	if !ok || c.Len() != 2 {
		return fmt.Errorf("decision conflict %v is not [index, rows]", first)
	}
	num, _ := c.Elem(0).Value.(ast.Number)
	i, ok := num.Int()
	names, _ := c.Elem(1).Value.(*ast.Array)
	if !ok || i < 0 || i >= len(batch) || names == nil {
		return fmt.Errorf("decision conflict %v has no valid instance index", first)
	}
	if names.Len() == 0 {
		return fmt.Errorf("%s: no rule decides its action", batch[i].Address)
	}
	return fmt.Errorf("%s: rules %s and %s both decide it", batch[i].Address,
		e.fired(str(names.Elem(0))).RuleID, e.fired(str(names.Elem(1))).RuleID)
}

// decodeIndexed adds the extra provenance and the findings, which the rules
// return as sets of [index, item] (most instances have none).
func (e *Engine) decodeIndexed(res ast.Object, out []Decision) error {
	indexed := func(key *ast.Term, add func(d *Decision, item *ast.Term) error) error {
		return eachIndexed(res, key, len(out), func(i int, item *ast.Term) error {
			return add(&out[i], item)
		})
	}
	err := indexed(keyFired, func(d *Decision, item *ast.Term) error {
		f, err := e.decodeFired(item)
		if err != nil {
			return err
		}
		d.Provenance = append(d.Provenance[:len(d.Provenance):len(d.Provenance)], f)
		return nil
	})
	if err != nil {
		return err
	}
	err = indexed(keyErrors, func(d *Decision, item *ast.Term) error {
		f, err := e.decodeFinding(item)
		d.Errors = append(d.Errors, f)
		return err
	})
	if err != nil {
		return err
	}
	return indexed(keyWarnings, func(d *Decision, item *ast.Term) error {
		f, err := e.decodeFinding(item)
		d.Warnings = append(d.Warnings, f)
		return err
	})
}

var (
	keyRun       = ast.InternedTerm("run")
	keyInstances = ast.InternedTerm("instances")
	keyDecisions = ast.InternedTerm("decisions")
	keyConflicts = ast.InternedTerm("conflicts")
	keyCheckAll  = ast.InternedTerm("check_all")
	keyFired     = ast.InternedTerm("fired")
	keyErrors    = ast.InternedTerm("errors")
	keyWarnings  = ast.InternedTerm("warnings")
	keyRule      = ast.InternedTerm("rule")
	keyValue     = ast.InternedTerm("value")
	keySummary   = ast.InternedTerm("summary")
	keyDetail    = ast.InternedTerm("detail")
)

// decodeRules turns a list of rule ids and team elements into provenance.
func (e *Engine) decodeRules(t *ast.Term) ([]provenance.Rule, error) {
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("rules %v is not an array", t)
	}
	fired := make([]provenance.Rule, 0, arr.Len())
	for i := range arr.Len() {
		f, err := e.decodeFired(arr.Elem(i))
		if err != nil {
			return nil, err
		}
		fired = append(fired, f)
	}
	return fired, nil
}

// decodeFired reads a rule id, or a team element {"value": [i, message],
// "rule": handle} as produced by a wrapped team rule.
func (e *Engine) decodeFired(t *ast.Term) (provenance.Rule, error) {
	switch v := t.Value.(type) {
	case ast.String:
		return e.fired(string(v)), nil
	case ast.Object:
		f := e.fired(stringAt(v, keyRule))
		f.Message = teamMessage(v.Get(keyValue))
		return f, nil
	default:
		return provenance.Rule{}, fmt.Errorf("rule reference %v is neither an id nor a team element", v)
	}
}

func (e *Engine) decodeFinding(t *ast.Term) (Finding, error) {
	obj, ok := t.Value.(ast.Object)
	if !ok {
		return Finding{}, fmt.Errorf("finding %v is not an object", t)
	}
	return Finding{
		RuleID:  e.fired(stringAt(obj, keyRule)).RuleID,
		Summary: stringAt(obj, keySummary),
		Detail:  stringAt(obj, keyDetail),
	}, nil
}

func str(t *ast.Term) string {
	if s, ok := t.Value.(ast.String); ok {
		return string(s)
	}
	return ""
}

func stringAt(obj ast.Object, key *ast.Term) string {
	if t := obj.Get(key); t != nil {
		if s, ok := t.Value.(ast.String); ok {
			return string(s)
		}
	}
	return ""
}

// teamMessage renders the message of a team element's value [i, message]
// (or of a bare value): strings as they are, anything else as Rego source.
func teamMessage(t *ast.Term) string {
	if t == nil {
		return ""
	}
	if pair, ok := t.Value.(*ast.Array); ok && pair.Len() == 2 {
		t = pair.Elem(1)
	}
	if s, ok := t.Value.(ast.String); ok {
		return string(s)
	}
	return t.String()
}

func valueAt(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}
