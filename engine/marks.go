package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

// sensitiveMark is the one mark tenet uses: the value must not be shown.
const sensitiveMark = funcs.SensitiveMark

func containsMark(v cty.Value) bool {
	return v.ContainsMarked()
}

// unmarkPaths strips marks and returns where the sensitive ones were.
func unmarkPaths(v cty.Value) (cty.Value, []cty.Path) {
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
