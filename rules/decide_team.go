package rules

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Team rules reach the default decision table only through its extension
// points, force_replace and prevent_destroy. So with team rules loaded the
// engine evaluates those (the team's own cost, over every instance and its
// values), then the table once per distinct set of facts, where an
// instance's facts include the elements team rules added for it, handed to
// the table through `with`. A plan's cost with team rules is then what the
// team rules cost, not another evaluation of the whole table.

const (
	// What team rules added, read on its own (the extension points are
	// defined by team files only, and undefined ones add nothing).
	teamDecideQuery = `{"force_replace": {e | some e in data.tenet.decide.force_replace},` +
		` "prevent_destroy": {e | some e in data.tenet.decide.prevent_destroy}}`
	decideWithTeamQuery = decideQuery +
		" with data.tenet.decide.force_replace as input.team.force_replace" +
		" with data.tenet.decide.prevent_destroy as input.team.prevent_destroy"
)

var keyTeam = ast.InternedTerm("team")

// teamElements are what team rules added to the decide extension points,
// by index in the batch.
type teamElements struct {
	forceReplace, preventDestroy [][]*ast.Term
	keys                         []string // canonical form, index left out
}

// decideTeamElements evaluates the team extension points over the batch in
// chunks, as the table itself would see them.
func (e *Engine) decideTeamElements(ctx context.Context, run Run, runT *ast.Term, batch []Instance) (*teamElements, error) {
	n := len(batch)
	te := &teamElements{
		forceReplace:   make([][]*ast.Term, n),
		preventDestroy: make([][]*ast.Term, n),
		keys:           make([]string, n),
	}
	values := e.decideValues()
	runSecrets := e.runSecretTexts(run)
	err := evalInChunks(ctx, n, func(ctx context.Context, lo, hi int) error {
		chunk := batch[lo:hi]
		// Only the instances a team rule may add an element for are
		// presented (guards.go); at[k] is the chunk index of the k-th.
		at, withValues := e.decideSelection(run, chunk, values)
		if at == nil {
			at = make([]int, len(chunk))
			for i := range at {
				at[i] = i
			}
		}
		if len(at) == 0 {
			return nil
		}
		terms := make([]*ast.Term, len(at))
		vb := e.newValueBuilder()
		fields := e.omit.decideFields
		for k, i := range at {
			items := e.instanceItems(vb, &chunk[i], values && (withValues == nil || withValues[k]))
			if fields != nil {
				kept := items[:0]
				for _, it := range items {
					if name, ok := it[0].Value.(ast.String); !ok || fields[string(name)] {
						kept = append(kept, it)
					}
				}
				items = kept
			}
			terms[k] = ast.ObjectTerm(items...)
		}
		input := ast.NewObject(ast.Item(keyRun, runT), ast.Item(keyInstances, ast.ArrayTerm(terms...)))
		rs, err := e.evalStage(ctx, e.teamDecide, input, run.Timestamp)
		if err != nil {
			return evalError("decision", err)
		}
		if len(rs) == 0 {
			return fmt.Errorf("decision rules produced no team elements")
		}
		res, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
		if !ok {
			return fmt.Errorf("decision rules returned team elements %v, want an object", rs[0].Expressions[0].Value)
		}
		for _, point := range []struct {
			name string
			key  *ast.Term
			dest [][]*ast.Term
		}{{"force_replace", keyForceReplace, te.forceReplace}, {"prevent_destroy", keyPreventDestroy, te.preventDestroy}} {
			set, _ := valueAt(res, point.key).(ast.Set)
			if set == nil {
				continue
			}
			// Sets iterate in sorted order: the error reported is the same
			// from one run to the next.
			err := set.Iter(func(el *ast.Term) error {
				k, err := e.instanceElement(el, point.name, len(at))
				if err != nil {
					return err
				}
				i := lo + at[k]
				// Messages must not quote sensitive values (redact.go).
				point.dest[i] = append(point.dest[i], e.instanceSecrets(runSecrets, &chunk[at[k]]).redactElement(el))
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range n {
		te.keys[i] = teamKey(te.forceReplace[i], te.preventDestroy[i])
	}
	return te, nil
}

// teamKey is a canonical text of an instance's elements, their index left
// out, for the memo key.
func teamKey(forceReplace, preventDestroy []*ast.Term) string {
	if len(forceReplace)+len(preventDestroy) == 0 {
		return ""
	}
	var parts []string
	for _, group := range []struct {
		tag string
		els []*ast.Term
	}{{"f", forceReplace}, {"p", preventDestroy}} {
		for _, el := range group.els {
			obj := el.Value.(ast.Object)
			value := valueAt(obj, keyValue).(*ast.Array)
			var b strings.Builder
			b.WriteString(group.tag)
			b.WriteString(valueAt(obj, keyRule).String())
			for k := 1; k < value.Len(); k++ {
				b.WriteByte(0)
				b.WriteString(value.Elem(k).String())
			}
			parts = append(parts, b.String())
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x01")
}

// reindexed returns the elements with their index replaced by j.
func reindexed(els []*ast.Term, j int) []*ast.Term {
	out := make([]*ast.Term, len(els))
	for k, el := range els {
		obj := el.Value.(ast.Object)
		value := valueAt(obj, keyValue).(*ast.Array)
		elems := make([]*ast.Term, value.Len())
		elems[0] = ast.InternedTerm(j)
		for m := 1; m < value.Len(); m++ {
			elems[m] = value.Elem(m)
		}
		out[k] = ast.ObjectTerm(ast.Item(keyValue, ast.ArrayTerm(elems...)), ast.Item(keyRule, obj.Get(keyRule)))
	}
	return out
}

// decideChunkWithTeam evaluates the table for a chunk whose team elements
// are given (by index in the chunk), without instance values: the default
// rows never read them.
func (e *Engine) decideChunkWithTeam(ctx context.Context, ts time.Time, run *ast.Term, batch []Instance, forceReplace, preventDestroy [][]*ast.Term, out []Decision) error {
	terms := make([]*ast.Term, len(batch))
	vb := e.newValueBuilder()
	var fr, pd []*ast.Term
	for i := range batch {
		terms[i] = e.instanceTerm(vb, &batch[i], false)
		fr = append(fr, reindexed(forceReplace[i], i)...)
		pd = append(pd, reindexed(preventDestroy[i], i)...)
	}
	input := ast.NewObject(
		ast.Item(keyRun, run),
		ast.Item(keyInstances, ast.ArrayTerm(terms...)),
		ast.Item(keyTeam, ast.ObjectTerm(
			ast.Item(keyForceReplace, ast.SetTerm(fr...)),
			ast.Item(keyPreventDestroy, ast.SetTerm(pd...)),
		)),
	)
	if e.checkAll {
		input.Insert(keyCheckAll, ast.InternedTerm(true))
	}
	rs, err := e.evalStage(ctx, e.decideWithTeam, input, ts)
	if err != nil {
		return evalError("decision", err)
	}
	return e.decodeResult(rs, batch, out)
}
