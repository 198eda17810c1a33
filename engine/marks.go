package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

// sensitiveMark is the one mark tenet uses: the value must not be shown.
const sensitiveMark = funcs.SensitiveMark

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

// unmarkPaths strips marks and returns where the sensitive ones were.
func unmarkPaths(v cty.Value) (cty.Value, []cty.Path) {
	if !containsMark(v) {
		return v, nil
	}
	uv, pvm := v.UnmarkDeepWithPaths()
	var paths []cty.Path
	for _, pm := range pvm {
		if _, ok := pm.Marks[sensitiveMark]; ok {
			paths = append(paths, pm.Path)
		}
	}
	return uv, paths
}

// markPaths marks v sensitive at each path.
func markPaths(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(sensitiveMark)}
	}
	return v.MarkWithPaths(pvm)
}
