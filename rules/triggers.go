package rules

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/tenetplan/tenet/internal/provenance"
)

// TriggerInstance holds the replace_triggered_by facts of one managed
// resource instance, gathered after the referenced resources were planned.
type TriggerInstance struct {
	Address    string
	References []TriggerRef
}

// TriggerRef is one replace_triggered_by reference of an instance.
type TriggerRef struct {
	Ref         string   // as resolved for the instance, e.g. `terraform_data.a["y"].output`
	Actions     []string // actions (rule names) of the referenced current objects' changes
	HasPath     bool     // an attribute path follows the resource (instance)
	PathChanged bool     // the value at the path differs between before and after
}

// Trigger is what the "triggers" stage decided for one instance.
type Trigger struct {
	Triggered bool
	// Ref is the first reference that fired; Provenance the rule that fired it.
	Ref        string
	Provenance []provenance.Rule
}

// Triggers evaluates the triggers stage for a batch and returns one result
// per instance, in order.
func (e *Engine) Triggers(ctx context.Context, run Run, batch []TriggerInstance) ([]Trigger, error) {
	out := make([]Trigger, len(batch))
	runT := runTerm(run)
	err := evalInChunks(ctx, len(batch), func(ctx context.Context, lo, hi int) error {
		return e.triggersChunk(ctx, run, runT, batch[lo:hi], out[lo:hi])
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

var (
	keyReferences  = ast.InternedTerm("references")
	keyRef         = ast.InternedTerm("ref")
	keyActions     = ast.InternedTerm("actions")
	keyHasPath     = ast.InternedTerm("has_path")
	keyPathChanged = ast.InternedTerm("path_changed")
	keyTriggeredBy = ast.InternedTerm("triggered")
)

func (e *Engine) triggersChunk(ctx context.Context, run Run, runT *ast.Term, batch []TriggerInstance, out []Trigger) error {
	terms := make([]*ast.Term, len(batch))
	for i := range batch {
		in := &batch[i]
		refs := make([]*ast.Term, len(in.References))
		for j, r := range in.References {
			refs[j] = ast.ObjectTerm(
				ast.Item(keyRef, ast.StringTerm(r.Ref)),
				ast.Item(keyActions, ast.ArrayTerm(stringTerms(r.Actions)...)),
				ast.Item(keyHasPath, ast.InternedTerm(r.HasPath)),
				ast.Item(keyPathChanged, ast.InternedTerm(r.PathChanged)),
			)
		}
		terms[i] = ast.ObjectTerm(
			ast.Item(keyAddress, ast.StringTerm(in.Address)),
			ast.Item(keyReferences, ast.ArrayTerm(refs...)),
		)
	}
	input := ast.NewObject(
		ast.Item(keyRun, runT),
		ast.Item(keyInstances, ast.ArrayTerm(terms...)),
	)
	rs, err := e.triggersQ.Eval(ctx, rego.EvalParsedInput(input), rego.EvalTime(run.Timestamp), rego.EvalGenerateJSON(rawTerm))
	if err != nil {
		return fmt.Errorf("evaluating replace_triggered_by rules: %w", err)
	}
	if len(rs) == 0 {
		return nil
	}
	res, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	if !ok {
		return fmt.Errorf("replace_triggered_by rules returned %v, want an object", rs[0].Expressions[0].Value)
	}
	set, ok := valueAt(res, keyTriggeredBy).(ast.Set)
	if !ok {
		return nil
	}
	// Sorted iteration: the first element seen for an instance has the
	// lowest reference index, the one OpenTofu stops at.
	return set.Iter(func(t *ast.Term) error {
		row, ok := t.Value.(*ast.Array)
		if !ok || row.Len() != 3 {
			return fmt.Errorf("replace_triggered_by rules: element %v is not [index, reference, rule]", t)
		}
		i, err := indexOf(row.Elem(0), len(out))
		if err != nil {
			return fmt.Errorf("replace_triggered_by rules: %w", err)
		}
		j, err := indexOf(row.Elem(1), len(batch[i].References))
		if err != nil {
			return fmt.Errorf("replace_triggered_by rules: reference %w", err)
		}
		if out[i].Triggered {
			return nil
		}
		out[i] = Trigger{Triggered: true, Ref: batch[i].References[j].Ref, Provenance: []provenance.Rule{e.fired(str(row.Elem(2)))}}
		return nil
	})
}
