package rules

import (
	"encoding/json"
	"fmt"
	"math/big"
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
func (e *Engine) instanceTerm(in *Instance) *ast.Term {
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
	if e.includeValues && !e.omit.decide {
		if !e.omit.config {
			items = append(items, ast.Item(keyConfig, e.valueTerm(in.Config)))
		}
		if !e.omit.prior {
			items = append(items, ast.Item(keyPrior, e.valueTerm(in.Prior)))
		}
		if !e.omit.planned {
			items = append(items, ast.Item(keyPlanned, e.valueTerm(in.Planned)))
		}
	}
	return ast.ObjectTerm(items...)
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

// valueTerm presents a cty value JSON-plan style:
//
//	{"values": <known parts>, "unknown": <true at unknown leaves>, "sensitive": <true at sensitive leaves>}
//
// Unknown object attributes and map elements are omitted from values (unknown
// list elements become null, keeping positions). The unknown and sensitive
// trees hold objects for objects and maps, listing only the attributes that
// contain an unknown (or sensitive) value, and arrays for lists, sets and
// tuples; a wholly unknown (sensitive) value is true and a value without any
// is false ({} at the top of an object). cty.NilVal is null.
func (e *Engine) valueTerm(v cty.Value) *ast.Term {
	if v == cty.NilVal {
		return ast.InternedNullTerm
	}
	// Most values are wholly known and unmarked: one walk converts them.
	if t, ok := plainValueTerm(v); ok {
		none := ast.InternedTerm(false)
		if isObjectLike(v.Type()) {
			none = emptyObject
		}
		return ast.ObjectTerm(ast.Item(keyValues, t), ast.Item(keyUnknown, none), ast.Item(keySensitive, none))
	}
	var sensitive *ast.Term
	if v.ContainsMarked() {
		var pvm []cty.PathValueMarks
		v, pvm = v.UnmarkDeepWithPaths()
		sensitive = e.sensitiveTree(v, pvm)
	}
	unknown := ast.InternedTerm(false)
	if !v.IsWhollyKnown() {
		unknown = unknownTree(v)
	}
	if isObjectLike(v.Type()) {
		if unknown.Equal(ast.InternedTerm(false)) {
			unknown = emptyObject
		}
		if sensitive == nil || sensitive.Equal(ast.InternedTerm(false)) {
			sensitive = emptyObject
		}
	}
	if sensitive == nil {
		sensitive = ast.InternedTerm(false)
	}
	return ast.ObjectTerm(
		ast.Item(keyValues, ctyValueTerm(v)),
		ast.Item(keyUnknown, unknown),
		ast.Item(keySensitive, sensitive),
	)
}

func isObjectLike(ty cty.Type) bool { return ty.IsObjectType() || ty.IsMapType() }

// plainValueTerm converts a value that has no unknown and no marked part,
// and reports false as soon as it meets one (valueTerm then takes the
// general path).
func plainValueTerm(v cty.Value) (*ast.Term, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return nil, false
	}
	if v.IsNull() {
		return ast.InternedNullTerm, true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return ast.StringTerm(v.AsString()), true
	case ty == cty.Bool:
		return ast.InternedTerm(v.True()), true
	case ty == cty.Number:
		return numberTerm(v.AsBigFloat()), true
	case isObjectLike(ty):
		items := make([][2]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			t, ok := plainValueTerm(ev)
			if !ok {
				return nil, false
			}
			items = append(items, ast.Item(ast.StringTerm(k.AsString()), t))
		}
		return ast.ObjectTerm(items...), true
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			t, ok := plainValueTerm(ev)
			if !ok {
				return nil, false
			}
			elems = append(elems, t)
		}
		return ast.ArrayTerm(elems...), true
	default: // capsules have no JSON form
		return ast.InternedNullTerm, true
	}
}

// ctyValueTerm converts the known parts of an unmarked value.
func ctyValueTerm(v cty.Value) *ast.Term {
	if !v.IsKnown() || v.IsNull() {
		return ast.InternedNullTerm
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return ast.StringTerm(v.AsString())
	case ty == cty.Bool:
		return ast.InternedTerm(v.True())
	case ty == cty.Number:
		return numberTerm(v.AsBigFloat())
	case isObjectLike(ty):
		items := make([][2]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if !ev.IsKnown() {
				continue
			}
			items = append(items, ast.Item(ast.StringTerm(k.AsString()), ctyValueTerm(ev)))
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, ctyValueTerm(ev))
		}
		return ast.ArrayTerm(elems...)
	default: // capsules have no JSON form
		return ast.InternedNullTerm
	}
}

func numberTerm(f *big.Float) *ast.Term {
	if f.IsInf() {
		return ast.InternedNullTerm
	}
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return ast.NumberTerm(json.Number(strconv.FormatInt(i, 10)))
		}
		return ast.NumberTerm(json.Number(f.Text('f', 0)))
	}
	return ast.NumberTerm(json.Number(f.Text('g', -1)))
}

// unknownTree marks the unknown leaves of v (see valueTerm).
func unknownTree(v cty.Value) *ast.Term {
	return markTree(v, func(v cty.Value) bool { return !v.IsKnown() }, func(v cty.Value) bool { return v.IsWhollyKnown() })
}

// markTree builds a tree of true at the values for which leaf holds, pruning
// subtrees for which clean holds.
func markTree(v cty.Value, leaf, clean func(cty.Value) bool) *ast.Term {
	switch {
	case leaf(v):
		return ast.InternedTerm(true)
	case clean(v) || v.IsNull() || !v.IsKnown():
		return ast.InternedTerm(false)
	}
	ty := v.Type()
	switch {
	case isObjectLike(ty):
		var items [][2]*ast.Term
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if sub := markTree(ev, leaf, clean); !sub.Equal(ast.InternedTerm(false)) {
				items = append(items, ast.Item(ast.StringTerm(k.AsString()), sub))
			}
		}
		if len(items) == 0 {
			return ast.InternedTerm(false)
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, markTree(ev, leaf, clean))
		}
		return ast.ArrayTerm(elems...)
	default:
		return ast.InternedTerm(false)
	}
}

// sensitiveTree marks the paths of v that carry a sensitive mark.
func (e *Engine) sensitiveTree(v cty.Value, pvm []cty.PathValueMarks) *ast.Term {
	marked := map[string]bool{}
	for _, p := range pvm {
		for m := range p.Marks {
			if e.isSensitive == nil || e.isSensitive(m) {
				marked[pathKey(p.Path)] = true
				break
			}
		}
	}
	if len(marked) == 0 {
		return nil
	}
	return sensitiveAt(v, nil, marked)
}

func sensitiveAt(v cty.Value, path cty.Path, marked map[string]bool) *ast.Term {
	if marked[pathKey(path)] {
		return ast.InternedTerm(true)
	}
	if v.IsNull() || !v.IsKnown() {
		return ast.InternedTerm(false)
	}
	ty := v.Type()
	switch {
	case isObjectLike(ty):
		var items [][2]*ast.Term
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			var step cty.PathStep = cty.GetAttrStep{Name: k.AsString()}
			if ty.IsMapType() {
				step = cty.IndexStep{Key: k}
			}
			if sub := sensitiveAt(ev, append(path, step), marked); !sub.Equal(ast.InternedTerm(false)) {
				items = append(items, ast.Item(ast.StringTerm(k.AsString()), sub))
			}
		}
		if len(items) == 0 {
			return ast.InternedTerm(false)
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var elems []*ast.Term
		any := false
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			sub := sensitiveAt(ev, append(path, cty.IndexStep{Key: k}), marked)
			any = any || !sub.Equal(ast.InternedTerm(false))
			elems = append(elems, sub)
		}
		if !any {
			return ast.InternedTerm(false)
		}
		return ast.ArrayTerm(elems...)
	default:
		return ast.InternedTerm(false)
	}
}

// pathKey renders a path as a map key; equal paths give equal keys.
func pathKey(p cty.Path) string {
	b := make([]byte, 0, 32)
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			b = append(b, '.')
			b = append(b, s.Name...)
		case cty.IndexStep:
			b = append(b, '[')
			b = append(b, s.Key.GoString()...)
			b = append(b, ']')
		}
	}
	return string(b)
}
