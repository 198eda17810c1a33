package rules

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Guards: a team extension rule written `ignore_paths contains [i, p] if {
// some i, inst in input.instances; ... }` can only add an element for
// instance i when every top-level condition of its body holds for it. The
// conditions whose outcome follows from the instance's facts alone (a
// value path that must be defined, a field or variable equal to a
// string, a type test on a value) are read off the compiled rule; an
// instance that fails one condition of every team rule of a stage cannot
// get an element from any of them, so it is neither presented (the values
// are most of what team rules cost) nor evaluated. A plan from an empty
// state then evaluates no rule that reads prior values, and a rule keyed
// on input.run.variables.env == "prod" costs nothing in other
// environments.
//
// Guards are only used when leaving instances out cannot change what the
// rules see of the others: every reference of the stage's team files to
// input.instances must be input.instances[i] with i the index of the
// element the rule adds, and nothing may use `with`.

// guardSource is where a condition's value comes from.
type guardSource uint8

const (
	srcVariable guardSource = iota // input.run.variables.NAME
	srcField                       // a string field of the instance (type, name, ...)
	srcConfig                      // inst.config.values
	srcPrior                       // inst.prior.values
	srcPlanned                     // inst.planned.values
)

type condKind uint8

const (
	condDefined   condKind = iota // the value at path is defined
	condEquals                    // ... and equals want
	condPredicate                 // ... and the built-in pred holds for it
	condNonEmpty                  // one of any is a collection with an element
	condDiffers                   // ... and differs from the value at other
	condString                    // ... is a string, and pred(it, want) holds
)

// guardPath locates a value: a variable or field name, then member names.
type guardPath struct {
	src  guardSource
	name string   // variable or field name (srcVariable, srcField)
	path []string // members below it
	// slot numbers the distinct paths of a stage's guards and their
	// prefixes, so that an instance walks each step once however many
	// conditions read it; parent is the slot of the path one step shorter
	// (-1 at a root).
	slot, parent int
}

type guardCond struct {
	kind condKind
	at   guardPath
	want string      // condEquals
	pred string      // condPredicate
	any  []guardPath // condNonEmpty
	// other is the value condDiffers compares with.
	other guardPath
}

// stageGuards are the conditions of each team extension rule of a stage
// (a rule without conditions may always fire). nil: no guards, every
// instance is evaluated.
type stageGuards struct {
	rules [][]guardCond
	// readsValues says, by rule, whether it may read config, prior or
	// planned values: an instance only rules that do not may fire for is
	// presented without them.
	readsValues []bool
	// paths are the numbered paths by slot (guardPath.slot).
	paths []guardPath
}

// guardFacts is what conditions read of one instance.
type guardFacts struct {
	address, resource, module, typ, name string
	config, prior, planned               cty.Value
	configAttrs, priorAttrs              attrSet
	plannedAttrs                         attrSet
	variables                            map[string]cty.Value

	// found caches what at found for each numbered path of the instance
	// being checked: valid when its gen is the facts' gen.
	found []foundAt
	gen   uint32
	g     *stageGuards
}

type foundAt struct {
	gen uint32
	v   cty.Value
	ok  bool
}

// next starts checking another instance (callers set its fields first).
func (f *guardFacts) next(g *stageGuards) {
	if len(f.found) < len(g.paths) {
		f.found = make([]foundAt, len(g.paths))
	}
	f.g = g
	f.gen++
}

// mayFire reports whether some rule's conditions all hold for the instance.
func (g *stageGuards) mayFire(f *guardFacts) bool {
	may, _ := g.fire(f)
	return may
}

// fire reports whether some rule's conditions all hold for the instance,
// and whether one of those rules may read its values.
func (g *stageGuards) fire(f *guardFacts) (may, values bool) {
	if g == nil {
		return true, true
	}
	for i, conds := range g.rules {
		if f.holds(conds) {
			may = true
			if g.readsValues[i] {
				return true, true
			}
		}
	}
	return may, false
}

func (f *guardFacts) holds(conds []guardCond) bool {
	for i := range conds {
		c := &conds[i]
		if c.kind == condNonEmpty {
			if !slices.ContainsFunc(c.any, f.nonEmpty) {
				return false
			}
			continue
		}
		v, ok := f.at(c.at)
		if !ok {
			return false
		}
		switch c.kind {
		case condEquals:
			if v.IsMarked() {
				v, _ = v.UnmarkDeep()
			}
			if !v.IsKnown() || v.IsNull() || v.Type() != cty.String || v.AsString() != c.want {
				return false
			}
		case condPredicate:
			if !predicateHolds(c.pred, v) {
				return false
			}
		case condDiffers:
			w, ok := f.at(c.other)
			if !ok {
				return false
			}
			// Equal values are presented alike, so x != y is false.
			if v, w = unmarkedDeep(v), unmarkedDeep(w); v.IsWhollyKnown() && w.IsWhollyKnown() && v.RawEquals(w) {
				return false
			}
		case condString:
			v = unmarkedDeep(v)
			if !v.IsKnown() || v.IsNull() || v.Type() != cty.String || !stringOps[c.pred](v.AsString(), c.want) {
				return false
			}
		}
	}
	return true
}

// at finds the value as rules see it; false when it is undefined there.
func (f *guardFacts) at(p guardPath) (cty.Value, bool) {
	if f.g == nil || p.slot < 0 || p.slot >= len(f.found) {
		return f.walk(p)
	}
	c := &f.found[p.slot]
	if c.gen == f.gen {
		return c.v, c.ok
	}
	if p.parent < 0 {
		c.v, c.ok = f.walk(p)
	} else if pv, ok := f.at(f.g.paths[p.parent]); ok {
		// One step below the parent's value.
		var attrs attrSet
		if len(p.path) == 1 {
			attrs = f.topAttrs(p.src)
		}
		c.v, c.ok = presentedAt(pv, p.path[len(p.path)-1:], attrs)
	} else {
		c.v, c.ok = cty.NilVal, false
	}
	c.gen = f.gen
	return c.v, c.ok
}

// topAttrs are the attributes presented of a value (nil: all).
func (f *guardFacts) topAttrs(src guardSource) attrSet {
	switch src {
	case srcConfig:
		return f.configAttrs
	case srcPrior:
		return f.priorAttrs
	case srcPlanned:
		return f.plannedAttrs
	}
	return nil
}

// walk finds the value at p.
func (f *guardFacts) walk(p guardPath) (cty.Value, bool) {
	switch p.src {
	case srcVariable:
		v, ok := f.variables[p.name]
		if !ok {
			return cty.NilVal, false
		}
		return presentedAt(v, p.path, nil)
	case srcField:
		switch p.name {
		case "address":
			return cty.StringVal(f.address), true
		case "resource":
			return cty.StringVal(f.resource), true
		case "module":
			return cty.StringVal(f.module), true
		case "type":
			return cty.StringVal(f.typ), true
		case "name":
			return cty.StringVal(f.name), true
		}
		return cty.NilVal, false
	case srcConfig:
		return presentedValueAt(f.config, p.path, f.configAttrs)
	case srcPrior:
		return presentedValueAt(f.prior, p.path, f.priorAttrs)
	case srcPlanned:
		return presentedValueAt(f.planned, p.path, f.plannedAttrs)
	}
	return cty.NilVal, false
}

// nonEmpty reports whether the value at p is presented as a collection
// with at least one element (rules can iterate over it).
func (f *guardFacts) nonEmpty(p guardPath) bool {
	v, ok := f.at(p)
	if !ok {
		return false
	}
	if v.IsMarked() {
		v, _ = v.UnmarkDeep()
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		return len(ty.AttributeTypes()) > 0
	case ty.IsMapType():
		// Unknown elements are left out of the presentation.
		for it := v.ElementIterator(); it.Next(); {
			if _, ev := it.Element(); ev.IsKnown() {
				return true
			}
		}
		return false
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		return v.LengthInt() > 0
	}
	return false
}

// presentedValueAt walks X.values of a value presented as valueBuilder
// presents it: a missing value (cty.NilVal) has no values member at all.
func presentedValueAt(v cty.Value, path []string, attrs attrSet) (cty.Value, bool) {
	if v == cty.NilVal {
		return cty.NilVal, false
	}
	return presentedAt(v, path, attrs)
}

// presentedAt walks path through v as presented to rules: null and
// unknown values have no members, unknown attributes and map elements are
// left out, and at the top only the attributes in attrs are shown.
func presentedAt(v cty.Value, path []string, attrs attrSet) (cty.Value, bool) {
	for i, step := range path {
		if v.IsMarked() {
			v, _ = v.UnmarkDeep()
		}
		if !v.IsKnown() || v.IsNull() {
			return cty.NilVal, false
		}
		ty := v.Type()
		switch {
		case ty.IsObjectType():
			// Steps are normalized when guards are read, so the type's
			// map answers without normalizing again.
			if _, ok := ty.AttributeTypes()[step]; !ok || (i == 0 && !attrs.has(step)) {
				return cty.NilVal, false
			}
			v = v.GetAttr(step)
		case ty.IsMapType():
			k := cty.StringVal(step)
			if !v.HasIndex(k).True() {
				return cty.NilVal, false
			}
			v = v.Index(k)
		default:
			return cty.NilVal, false
		}
		if !v.IsKnown() {
			return cty.NilVal, false
		}
	}
	return v, true
}

func unmarkedDeep(v cty.Value) cty.Value {
	if v.ContainsMarked() {
		v, _ = v.UnmarkDeep()
	}
	return v
}

// stringOps are the built-ins testing a string against a constant that
// guards read off; each fails for a value that is not a string.
var stringOps = map[string]func(s, x string) bool{
	"startswith": strings.HasPrefix,
	"endswith":   strings.HasSuffix,
	"contains":   strings.Contains,
}

// guardPredicates are the one-argument built-ins whose outcome on a plain
// value guards read off; each returns false (or fails) for values it does
// not accept.
var guardPredicates = map[string]bool{
	"is_string": true, "is_number": true, "is_boolean": true, "is_null": true,
	"is_object": true, "is_array": true, "is_set": true, "json.is_valid": true,
}

func predicateHolds(pred string, v cty.Value) bool {
	if v.IsMarked() {
		v, _ = v.UnmarkDeep()
	}
	if !v.IsKnown() {
		// Presented as null (a list element) or not at all.
		return pred == "is_null"
	}
	if v.IsNull() {
		return pred == "is_null"
	}
	ty := v.Type()
	switch pred {
	case "is_string":
		return ty == cty.String
	case "is_number":
		return ty == cty.Number
	case "is_boolean":
		return ty == cty.Bool
	case "is_null":
		return false
	case "is_object":
		return ty.IsObjectType() || ty.IsMapType()
	case "is_array":
		return ty.IsListType() || ty.IsSetType() || ty.IsTupleType()
	case "is_set":
		return false // no JSON value is a set
	case "json.is_valid":
		return ty == cty.String && json.Valid([]byte(v.AsString()))
	}
	return true
}

// prepareSelection lists the instances of a prepare batch that need
// evaluating: those with configured ignore_changes (the default rules) and
// those a team rule may add an element for. nil: all of them.
func (e *Engine) prepareSelection(run Run, batch []PrepareInstance) []int {
	g := e.guards.prepare
	if g == nil {
		return nil
	}
	f := guardFacts{variables: run.Variables, configAttrs: e.omit.configAttrs, priorAttrs: e.omit.priorAttrs}
	sel := make([]int, 0, len(batch))
	for i := range batch {
		in := &batch[i]
		if in.HasPrior && (len(in.IgnoreChanges) > 0 || in.IgnoreAll) {
			sel = append(sel, i)
			continue
		}
		f.address, f.resource, f.module, f.typ, f.name = in.Address, in.Resource, in.Module, in.Type, in.Name
		f.config, f.prior = cty.NilVal, cty.NilVal
		f.next(g)
		if !e.omit.config {
			f.config = in.Config
		}
		if !e.omit.prior {
			f.prior = in.Prior
		}
		if g.mayFire(&f) {
			sel = append(sel, i)
		}
	}
	return sel
}

// decideSelection lists the instances of a chunk a team decide rule may
// add an element for, and whether one that may reads values; nil: all of
// them, with values.
func (e *Engine) decideSelection(run Run, chunk []Instance, values bool) ([]int, []bool) {
	g := e.guards.decide
	if g == nil {
		return nil, nil
	}
	var withValues []bool
	f := guardFacts{variables: run.Variables, configAttrs: e.omit.configAttrs, priorAttrs: e.omit.priorAttrs, plannedAttrs: e.omit.plannedAttrs}
	sel := make([]int, 0, len(chunk))
	for i := range chunk {
		in := &chunk[i]
		f.address, f.resource, f.module, f.typ, f.name = in.Address, in.Resource, in.Module, in.Type, in.Name
		f.config, f.prior, f.planned = cty.NilVal, cty.NilVal, cty.NilVal
		f.next(g)
		if values {
			if !e.omit.config {
				f.config = in.Config
			}
			if !e.omit.prior {
				f.prior = in.Prior
			}
			if !e.omit.planned {
				f.planned = in.Planned
			}
		}
		if may, v := g.fire(&f); may {
			sel = append(sel, i)
			withValues = append(withValues, v)
		}
	}
	return sel, withValues
}
