package rules

import (
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
)

// stepPaths builds paths from the step lists the tests write them as.
func stepPaths(lists ...[]any) []cty.Path {
	out := make([]cty.Path, len(lists))
	for i, steps := range lists {
		p, err := attrpath.FromSteps(steps)
		if err != nil {
			panic(err)
		}
		out[i] = p
	}
	return out
}

// asSteps lets go-cmp compare paths, which it cannot look into, in the
// step form the rules see.
var asSteps = cmp.Transformer("attrpath.Steps", attrpath.Steps)
