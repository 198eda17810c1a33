package eval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

// SensitiveMark is the one mark tenet uses: the value must not be shown.
const SensitiveMark = funcs.SensitiveMark

// containsMark reports whether v or anything inside it is marked. Objects
// are walked by attribute name: cty's own walk sorts the names and builds
// a path at every step, and most values planned have no marks at all.
func containsMark(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	ty := v.Type()
	switch {
	case ty.IsPrimitiveType() || !v.IsKnown() || v.IsNull():
		return false
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if containsMark(v.GetAttr(name)) {
				return true
			}
		}
		return false
	}
	return v.ContainsMarked()
}

// UnmarkPaths strips marks and returns where the sensitive ones were.
func UnmarkPaths(v cty.Value) (cty.Value, []cty.Path) {
	if !containsMark(v) {
		return v, nil
	}
	uv, pvm := v.UnmarkDeepWithPaths()
	var paths []cty.Path
	for _, pm := range pvm {
		if _, ok := pm.Marks[SensitiveMark]; ok {
			paths = append(paths, pm.Path)
		}
	}
	return uv, paths
}

// MarkPaths marks v sensitive at each path.
func MarkPaths(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)}
	}
	return v.MarkWithPaths(pvm)
}
