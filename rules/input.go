package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"
)

// Input keys, built once: the same key terms are shared by every instance
// object, which saves an allocation and a hash per key.
var (
	keyMode               = ast.InternedTerm("mode")
	keyTimestamp          = ast.InternedTerm("timestamp")
	keyAddress            = ast.InternedTerm("address")
	keyResource           = ast.InternedTerm("resource")
	keyModule             = ast.InternedTerm("module")
	keyType               = ast.InternedTerm("type")
	keyName               = ast.InternedTerm("name")
	keyKey                = ast.InternedTerm("key")
	keyDeposed            = ast.InternedTerm("deposed")
	keyHasConfig          = ast.InternedTerm("has_config")
	keyConfig             = ast.InternedTerm("config")
	keyConfigKnown        = ast.InternedTerm("config_known")
	keyHasPrior           = ast.InternedTerm("has_prior")
	keyPrior              = ast.InternedTerm("prior")
	keyTainted            = ast.InternedTerm("tainted")
	keyHasPlanned         = ast.InternedTerm("has_planned")
	keyPlanned            = ast.InternedTerm("planned")
	keyPlannedEqualsPrior = ast.InternedTerm("planned_equals_prior")
	keyRequiresReplace    = ast.InternedTerm("requires_replace")
	keyLifecycle          = ast.InternedTerm("lifecycle")
	keyCBD                = ast.InternedTerm("create_before_destroy")
	keyPreventDestroy     = ast.InternedTerm("prevent_destroy")
	keyForceReplace       = ast.InternedTerm("force_replace")
	keyTriggered          = ast.InternedTerm("triggered")
	keyDependencyPending  = ast.InternedTerm("dependency_pending")
	keyOrphan             = ast.InternedTerm("orphan")
	keyResourceInConfig   = ast.InternedTerm("resource_in_config")
	keyMoved              = ast.InternedTerm("moved")
	keyModuleDeclared     = ast.InternedTerm("module_declared")
	keyRepetition         = ast.InternedTerm("repetition")
	keyInExpansion        = ast.InternedTerm("in_expansion")
	keyRemoved            = ast.InternedTerm("removed")
	keyDestroy            = ast.InternedTerm("destroy")
	keyValues             = ast.InternedTerm("values")
	keyUnknown            = ast.InternedTerm("unknown")
	keySensitive          = ast.InternedTerm("sensitive")
	keyVariables          = ast.InternedTerm("variables")

	emptyArray  = ast.ArrayTerm()
	emptyObject = ast.ObjectTerm()
)

func runTerm(run Run) *ast.Term {
	items := [][2]*ast.Term{
		ast.Item(keyMode, ast.StringTerm(run.Mode)),
		ast.Item(keyTimestamp, ast.StringTerm(run.Timestamp.UTC().Format(time.RFC3339Nano))),
	}
	if len(run.Variables) > 0 {
		items = append(items, ast.Item(keyVariables, variablesTerm(run.Variables)))
	}
	return ast.ObjectTerm(items...)
}

// variablesTerm presents variable values plainly (known parts, marks
// dropped): team rules compare them, as in input.run.variables.env == "prod".
func variablesTerm(vars map[string]cty.Value) *ast.Term {
	items := make([][2]*ast.Term, 0, len(vars))
	for name, v := range vars {
		v, _ = v.UnmarkDeep()
		items = append(items, ast.Item(ast.StringTerm(name), ctyValueTerm(v)))
	}
	return ast.ObjectTerm(items...)
}

// instanceTerm presents one instance as the rules see it (input.instances[_]).
// Field names are part of the rules API: see doc.go.
func (e *Engine) instanceTerm(vb *valueBuilder, in *Instance) *ast.Term {
	items := make([][2]*ast.Term, 0, 26)
	items = append(items,
		ast.Item(keyAddress, ast.StringTerm(in.Address)),
		ast.Item(keyResource, ast.StringTerm(in.Resource)),
		ast.Item(keyModule, ast.StringTerm(in.Module)),
		ast.Item(keyMode, ast.StringTerm(in.Mode)),
		ast.Item(keyType, ast.StringTerm(in.Type)),
		ast.Item(keyName, ast.StringTerm(in.Name)),
		ast.Item(keyKey, keyTerm(in.Key)),
		ast.Item(keyDeposed, ast.StringTerm(in.Deposed)),
		ast.Item(keyHasConfig, ast.InternedTerm(in.HasConfig)),
		ast.Item(keyConfigKnown, ast.InternedTerm(in.ConfigKnown)),
		ast.Item(keyHasPrior, ast.InternedTerm(in.HasPrior)),
		ast.Item(keyTainted, ast.InternedTerm(in.Tainted)),
		ast.Item(keyHasPlanned, ast.InternedTerm(in.HasPlanned)),
		ast.Item(keyPlannedEqualsPrior, ast.InternedTerm(in.PlannedEqualsPrior)),
		ast.Item(keyRequiresReplace, pathsTerm(in.RequiresReplace)),
		ast.Item(keyLifecycle, ast.ObjectTerm(
			ast.Item(keyCBD, ast.InternedTerm(in.Lifecycle.CreateBeforeDestroy)),
			ast.Item(keyPreventDestroy, ast.InternedTerm(in.Lifecycle.PreventDestroy)),
		)),
		ast.Item(keyForceReplace, ast.InternedTerm(in.ForceReplace)),
		ast.Item(keyTriggered, ast.InternedTerm(in.Triggered)),
		ast.Item(keyDependencyPending, ast.InternedTerm(in.DependencyPending)),
		ast.Item(keyOrphan, ast.ObjectTerm(
			ast.Item(keyResourceInConfig, ast.InternedTerm(in.Orphan.ResourceInConfig)),
			ast.Item(keyMoved, ast.InternedTerm(in.Orphan.Moved)),
			ast.Item(keyModuleDeclared, ast.InternedTerm(in.Orphan.ModuleDeclared)),
			ast.Item(keyRepetition, ast.StringTerm(in.Orphan.Repetition)),
			ast.Item(keyInExpansion, ast.InternedTerm(in.Orphan.InExpansion)),
		)),
	)
	removed := ast.InternedNullTerm
	if in.Removed != nil {
		removed = ast.ObjectTerm(ast.Item(keyDestroy, ast.InternedTerm(in.Removed.Destroy)))
	}
	items = append(items, ast.Item(keyRemoved, removed))
	if vb != nil {
		var shown shownValues
		if in.Prepared != nil && in.Prepared.shown != nil {
			shown = *in.Prepared.shown
			in.Prepared.shown = nil // the plan keeps preparations; their terms are done with
		}
		if !e.omit.config {
			if shown.config == nil || !in.HasConfig {
				shown.config, _ = vb.value(in.Config, e.omit.configAttrs)
			}
			items = append(items, ast.Item(keyConfig, shown.config))
		}
		if !e.omit.prior {
			if shown.prior == nil || shown.priorMarked {
				shown.prior, _ = vb.value(in.Prior, e.omit.priorAttrs)
			}
			items = append(items, ast.Item(keyPrior, shown.prior))
		}
		if !e.omit.planned {
			t, _ := vb.value(in.Planned, e.omit.plannedAttrs)
			items = append(items, ast.Item(keyPlanned, t))
		}
	}
	return ast.ObjectTerm(items...)
}

// decideValues reports whether Decide presents values: team rules extend
// the decide stage and read some of them.
func (e *Engine) decideValues() bool {
	return e.includeValues && !e.omit.decide && !(e.omit.config && e.omit.prior && e.omit.planned)
}

func keyTerm(k any) *ast.Term {
	switch k := k.(type) {
	case nil:
		return ast.InternedNullTerm
	case string:
		return ast.StringTerm(k)
	case int:
		return ast.IntNumberTerm(k)
	case int64:
		return ast.NumberTerm(json.Number(strconv.FormatInt(k, 10)))
	case cty.Value:
		return ctyValueTerm(k)
	default:
		return ast.StringTerm(fmt.Sprint(k))
	}
}

func pathsTerm(paths [][]any) *ast.Term {
	if len(paths) == 0 {
		return emptyArray
	}
	out := make([]*ast.Term, len(paths))
	for i, p := range paths {
		steps := make([]*ast.Term, len(p))
		for j, s := range p {
			steps[j] = keyTerm(s)
		}
		out[i] = ast.ArrayTerm(steps...)
	}
	return ast.ArrayTerm(out...)
}
