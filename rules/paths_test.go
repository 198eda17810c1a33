package rules

import (
	"testing"

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

// TestPathsTerm pins the Rego shape of paths, part of the rules' contract:
// names and string-keys-as-names are strings, indices numbers, explicit
// keys {"key": k}.
func TestPathsTerm(t *testing.T) {
	tests := []struct {
		name  string
		paths []cty.Path
		want  string
	}{
		{"none", nil, `[]`},
		{"names and index", []cty.Path{cty.GetAttrPath("list").IndexInt(1).GetAttr("x")}, `[["list", 1, "x"]]`},
		{"explicit key", []cty.Path{cty.GetAttrPath("tags").IndexString("a.b")}, `[["tags", {"key": "a.b"}]]`},
		{"empty key", []cty.Path{cty.GetAttrPath("tags").IndexString("")}, `[["tags", {"key": ""}]]`},
		{"key as name (requires_replace)", []cty.Path{attrpath.KeysAsNames(cty.GetAttrPath("tags").IndexString("Name"))}, `[["tags", "Name"]]`},
		{"two paths", []cty.Path{cty.GetAttrPath("a"), cty.GetAttrPath("b")}, `[["a"], ["b"]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pathsTerm(tt.paths).String(); got != tt.want {
				t.Errorf("pathsTerm = %s, want %s", got, tt.want)
			}
		})
	}
}
