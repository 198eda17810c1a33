package eval

import (
	"github.com/zclconf/go-cty/cty"
)

// MergePaths joins two path lists, dropping duplicates.
func MergePaths(a, b []cty.Path) []cty.Path {
	if len(b) == 0 {
		return a
	}
	out := append([]cty.Path(nil), a...)
	for _, p := range b {
		dup := false
		for _, q := range out {
			if p.Equals(q) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// PathChanged compares the values at a path; unknown counts as changed.
func PathChanged(a, b cty.Value, p cty.Path) bool {
	av, aerr := p.Apply(a)
	bv, berr := p.Apply(b)
	if aerr != nil || berr != nil {
		return (aerr == nil) != (berr == nil)
	}
	if !av.IsWhollyKnown() || !bv.IsWhollyKnown() {
		return true
	}
	return !av.RawEquals(bv)
}

// ObjectID picks the id the UI shows for an object.
func ObjectID(v cty.Value) (string, string) {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return "", ""
	}
	for _, k := range []string{"id", "name"} {
		if v.Type().HasAttribute(k) {
			a := v.GetAttr(k)
			if a.IsKnown() && !a.IsNull() && a.Type() == cty.String && !a.IsMarked() {
				return k, a.AsString()
			}
		}
	}
	return "", ""
}
