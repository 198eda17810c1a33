package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
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
	keyInCheck            = ast.InternedTerm("in_check")
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
// Field names are part of the rules API: see doc.go. Values are presented
// when values is set.
func (e *Engine) instanceTerm(vb *valueBuilder, in *Instance, values bool) *ast.Term {
	return ast.ObjectTerm(e.instanceItems(vb, in, values)...)
}

// instanceItems are the items of an instance's term.
func (e *Engine) instanceItems(vb *valueBuilder, in *Instance, values bool) [][2]*ast.Term {
	items := make([][2]*ast.Term, 0, 26)
	items = append(items,
		ast.Item(keyAddress, ast.StringTerm(in.Address)),
		ast.Item(keyResource, vb.name(in.Resource)),
		ast.Item(keyModule, vb.name(in.Module)),
		ast.Item(keyMode, vb.name(in.Mode)),
		ast.Item(keyType, vb.name(in.Type)),
		ast.Item(keyName, vb.name(in.Name)),
		ast.Item(keyKey, keyTerm(in.Key)),
		ast.Item(keyDeposed, vb.name(in.Deposed)),
		ast.Item(keyHasConfig, ast.InternedTerm(in.HasConfig)),
		ast.Item(keyConfigKnown, ast.InternedTerm(in.ConfigKnown)),
		ast.Item(keyHasPrior, ast.InternedTerm(in.HasPrior)),
		ast.Item(keyTainted, ast.InternedTerm(in.Tainted)),
		ast.Item(keyHasPlanned, ast.InternedTerm(in.HasPlanned)),
		ast.Item(keyPlannedEqualsPrior, ast.InternedTerm(in.PlannedEqualsPrior)),
		ast.Item(keyRequiresReplace, pathsTerm(in.RequiresReplace)),
		ast.Item(keyLifecycle, lifecycleTerm(in.Lifecycle)),
		ast.Item(keyForceReplace, ast.InternedTerm(in.ForceReplace)),
		ast.Item(keyTriggered, ast.InternedTerm(in.Triggered)),
		ast.Item(keyDependencyPending, ast.InternedTerm(in.DependencyPending)),
		ast.Item(keyInCheck, ast.InternedTerm(in.InCheck)),
		ast.Item(keyOrphan, vb.orphan(in.Orphan)),
	)
	removed := ast.InternedNullTerm
	if in.Removed != nil {
		removed = ast.ObjectTerm(ast.Item(keyDestroy, ast.InternedTerm(in.Removed.Destroy)))
	}
	items = append(items, ast.Item(keyRemoved, removed))
	if values {
		var shown shownValues
		if in.Prepared != nil && in.Prepared.shown != nil {
			shown = *in.Prepared.shown
			in.Prepared.shown = nil // the plan keeps preparations; their terms are done with
		}
		if !e.omit.config {
			if shown.config == nil || !in.HasConfig {
				shown.config, _ = vb.value(in.Config, e.omit.configAttrs, nil)
			}
			items = append(items, ast.Item(keyConfig, shown.config))
		}
		if !e.omit.prior {
			if shown.prior == nil || shown.priorMarked {
				shown.prior, _ = vb.value(in.Prior, e.omit.priorAttrs, presentedAs(in.Config, shown.config))
			}
			items = append(items, ast.Item(keyPrior, shown.prior))
		}
		if !e.omit.planned {
			if shown.prior != nil && !shown.priorMarked && e.omit.priorAttrs.sameAs(e.omit.plannedAttrs) && in.Planned.RawEquals(in.Prior) {
				// Nothing changes (every instance of a no-change plan): the
				// planned object is presented as the prior one was.
				items = append(items, ast.Item(keyPlanned, shown.prior))
				return items
			}
			// A planned object mostly repeats the prior one.
			like := presentedAs(in.Prior, shown.prior)
			if like == nil {
				like = presentedAs(in.Config, shown.config)
			}
			t, _ := vb.value(in.Planned, e.omit.plannedAttrs, like)
			items = append(items, ast.Item(keyPlanned, t))
		}
	}
	return items
}

// lifecycleTerms holds the four lifecycle objects instances share, by
// create_before_destroy and prevent_destroy.
var lifecycleTerms = func() (t [2][2]*ast.Term) {
	for i, cbd := range []bool{false, true} {
		for j, pd := range []bool{false, true} {
			t[i][j] = ast.ObjectTerm(
				ast.Item(keyCBD, ast.InternedTerm(cbd)),
				ast.Item(keyPreventDestroy, ast.InternedTerm(pd)),
			)
		}
	}
	return t
}()

func lifecycleTerm(l Lifecycle) *ast.Term {
	return lifecycleTerms[b2i(l.CreateBeforeDestroy)][b2i(l.PreventDestroy)]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orphan presents orphan facts; the instances of a chunk mostly have the
// same, and share the term.
func (b *valueBuilder) orphan(o Orphan) *ast.Term {
	if b.lastOrphan != nil && b.lastOrphanFacts == o {
		return b.lastOrphan
	}
	b.lastOrphanFacts = o
	b.lastOrphan = ast.ObjectTerm(
		ast.Item(keyResourceInConfig, ast.InternedTerm(o.ResourceInConfig)),
		ast.Item(keyMoved, ast.InternedTerm(o.Moved)),
		ast.Item(keyModuleDeclared, ast.InternedTerm(o.ModuleDeclared)),
		ast.Item(keyRepetition, b.name(o.Repetition)),
		ast.Item(keyInExpansion, ast.InternedTerm(o.InExpansion)),
	)
	return b.lastOrphan
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
		return ast.InternedTerm(k)
	case int64:
		return ast.NumberTerm(json.Number(strconv.FormatInt(k, 10)))
	case cty.Value:
		return ctyValueTerm(k)
	case attrpath.MapKey:
		// An explicit ["key"] step of a path, told apart from an attribute.
		return ast.ObjectTerm(ast.Item(keyKeyStep, ast.StringTerm(string(k))))
	default:
		return ast.StringTerm(fmt.Sprint(k))
	}
}

// pathsTerm presents paths as attrpath's step list: string (attribute or
// key), int (index) or {"key": k} (explicit key).
func pathsTerm(paths []cty.Path) *ast.Term {
	if len(paths) == 0 {
		return emptyArray
	}
	out := make([]*ast.Term, len(paths))
	for i, p := range paths {
		ss := attrpath.Steps(p)
		steps := make([]*ast.Term, len(ss))
		for j, s := range ss {
			steps[j] = keyTerm(s)
		}
		out[i] = ast.ArrayTerm(steps...)
	}
	return ast.ArrayTerm(out...)
}

// stringTerms is the strings as terms, for an array or set of them.
func stringTerms(ss []string) []*ast.Term {
	terms := make([]*ast.Term, len(ss))
	for i, s := range ss {
		terms[i] = ast.StringTerm(s)
	}
	return terms
}
