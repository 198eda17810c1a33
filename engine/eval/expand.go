package eval

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// InstanceKeys is the result of expanding a count or for_each argument.
type InstanceKeys struct {
	Kind byte // 0 none, 'c' count, 'e' for_each
	Keys []addrs.InstanceKey
	Reps []Repetition
}

// Expand evaluates count and for_each in scope s.
func (s *Scope) Expand(count, forEach hcl.Expression) (InstanceKeys, hcl.Diagnostics) {
	switch {
	case count != nil:
		return s.expandCount(count)
	case forEach != nil:
		return s.expandForEach(forEach)
	}
	return InstanceKeys{Keys: []addrs.InstanceKey{addrs.NoKey}, Reps: []Repetition{{}}}, nil
}

func (s *Scope) expandCount(expr hcl.Expression) (InstanceKeys, hcl.Diagnostics) {
	out := InstanceKeys{Kind: 'c'}
	v, diags := s.EvalExpr(expr, cty.Number)
	if diags.HasErrors() {
		return out, diags
	}
	if v.HasMark(SensitiveMark) || containsMark(v) {
		return out, hcl.Diagnostics{Errorf(expr.Range().Ptr(), "Invalid count argument",
			"Sensitive values, or values derived from sensitive values, cannot be used as count arguments. If used, the sensitive value could be exposed as a resource instance key.")}
	}
	if !v.IsKnown() {
		return out, hcl.Diagnostics{Errorf(expr.Range().Ptr(), "Invalid count argument",
			`The "count" value depends on resource attributes that cannot be determined until apply, so tenet cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`)}
	}
	if v.IsNull() {
		return out, hcl.Diagnostics{Errorf(expr.Range().Ptr(), "Invalid count argument",
			`The given "count" argument value is null. An integer is required.`)}
	}
	bf := v.AsBigFloat()
	n, acc := bf.Int64()
	if !bf.IsInt() {
		return out, hcl.Diagnostics{Errorf(expr.Range().Ptr(), "Invalid count argument",
			`The given "count" argument value is unsuitable: must be a whole number.`)}
	}
	if n < 0 {
		return out, hcl.Diagnostics{Errorf(expr.Range().Ptr(), "Invalid count argument",
			`The given "count" argument value is unsuitable: must be greater than or equal to zero.`)}
	}
	if n > MaxInstances || acc != 0 {
		return out, hcl.Diagnostics{tooManyInstances(expr.Range().Ptr(), "count", bf.Text('f', 0))}
	}
	out.Keys = make([]addrs.InstanceKey, n)
	out.Reps = make([]Repetition, n)
	for i := 0; i < int(n); i++ {
		out.Keys[i] = addrs.IntKey(i)
		out.Reps[i] = Repetition{Kind: 'c', index: i}
	}
	return out, nil
}

func (s *Scope) expandForEach(expr hcl.Expression) (InstanceKeys, hcl.Diagnostics) {
	out := InstanceKeys{Kind: 'e'}
	v, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return out, diags
	}
	rng := expr.Range().Ptr()
	if containsMark(v) {
		return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each argument",
			"Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")}
	}
	ty := v.Type()
	if v.IsNull() {
		return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each argument",
			`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.`)}
	}
	isSet := ty.IsSetType()
	if !(ty.IsMapType() || ty.IsObjectType() || isSet || ty == cty.DynamicPseudoType) {
		return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each argument",
			`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName())}
	}
	if !v.IsKnown() {
		what := "map includes keys"
		if isSet {
			what = "set includes values"
		}
		return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each argument",
			`The "for_each" %s derived from resource attributes that cannot be determined until apply, and so tenet cannot determine the full set of keys that will identify the instances of this resource. When working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values. Alternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.`, what)}
	}
	if isSet {
		if et := ty.ElementType(); et != cty.String && et != cty.DynamicPseudoType {
			return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each set argument",
				`The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type %s.`, et.FriendlyName())}
		}
		if !v.IsWhollyKnown() {
			return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each argument",
				`The "for_each" set includes values derived from resource attributes that cannot be determined until apply, and so tenet cannot determine the full set of keys that will identify the instances of this resource. When working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.`)}
		}
	}
	if n := v.LengthInt(); n > MaxInstances {
		return out, hcl.Diagnostics{tooManyInstances(rng, "for_each", fmt.Sprint(n))}
	}
	type kv struct {
		k string
		v cty.Value
	}
	var items []kv
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if isSet {
			if k.IsNull() {
				return out, hcl.Diagnostics{Errorf(rng, "Invalid for_each set argument",
					`The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)}
			}
			items = append(items, kv{k.AsString(), k})
			continue
		}
		items = append(items, kv{k.AsString(), ev})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].k < items[j].k })
	for _, it := range items {
		out.Keys = append(out.Keys, addrs.StringKey(it.k))
		out.Reps = append(out.Reps, Repetition{Kind: 'e', Key: cty.StringVal(it.k), Value: it.v})
	}
	return out, nil
}

// keyedValue builds a whole-resource (or whole-module-call) value from
// per-instance values in the shape its repetition gives it.
func keyedValue(kind byte, keys []addrs.InstanceKey, vals []cty.Value) cty.Value {
	switch kind {
	case 'c':
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case 'e':
		if len(vals) == 0 {
			return cty.EmptyObjectVal
		}
		m := make(map[string]cty.Value, len(vals))
		for i, k := range keys {
			m[string(k.(addrs.StringKey))] = vals[i]
		}
		return cty.ObjectVal(m)
	}
	if len(vals) == 0 {
		return cty.DynamicVal
	}
	return vals[0]
}

// PresentKeyedValue is keyedValue for a resource some of whose instances
// have no object, which happens when -target or -exclude left them out:
// absent instances (cty.NilVal) are left out of the value, as OpenTofu
// builds it from the objects that exist. A count tuple ends at the last
// instance present, gaps before it unknown; with nothing present the whole
// value is unknown.
func PresentKeyedValue(kind byte, keys []addrs.InstanceKey, vals []cty.Value) cty.Value {
	var pk []addrs.InstanceKey
	var pv []cty.Value
	last := -1
	for i, v := range vals {
		if v != cty.NilVal {
			pk, pv, last = append(pk, keys[i]), append(pv, v), i
		}
	}
	switch {
	case len(pv) == len(vals):
		return keyedValue(kind, keys, vals)
	case len(pv) == 0:
		return cty.DynamicVal
	case kind == 'c':
		out := make([]cty.Value, last+1)
		for i := range out {
			out[i] = vals[i]
			if out[i] == cty.NilVal {
				out[i] = cty.DynamicVal
			}
		}
		return cty.TupleVal(out)
	}
	return keyedValue(kind, pk, pv)
}

func RepetitionName(kind byte) string {
	switch kind {
	case 'c':
		return "count"
	case 'e':
		return "for_each"
	}
	return "none"
}

// RepetitionFor gives the count.index / each.* of a module instance key,
// as seen by the arguments of its calling block.
func (e *expansion) RepetitionFor(m addrs.ModuleInstance) Repetition {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if r, ok := e.reps[m.String()]; ok {
		return r
	}
	return Repetition{}
}
