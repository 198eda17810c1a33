package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// terraform_data copies input into output: output stays as sensitive as
// input was.
func TestEchoedSensitivePaths(t *testing.T) {
	obj := func(out cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"input":  cty.ObjectVal(map[string]cty.Value{"pass": cty.StringVal("x"), "user": cty.StringVal("u")}),
			"output": out,
		})
	}
	known := cty.ObjectVal(map[string]cty.Value{"pass": cty.StringVal("x"), "user": cty.StringVal("u")})
	inputPass := cty.GetAttrPath("input").GetAttr("pass")
	tests := []struct {
		name  string
		typ   string
		v     cty.Value
		paths []cty.Path
		want  []cty.Path
	}{
		{"known output: same paths", "terraform_data", obj(known), []cty.Path{inputPass},
			[]cty.Path{inputPass, cty.GetAttrPath("output").GetAttr("pass")}},
		{"unknown output: all of it", "terraform_data", obj(cty.DynamicVal), []cty.Path{inputPass},
			[]cty.Path{inputPass, cty.GetAttrPath("output")}},
		{"no sensitive input", "terraform_data", obj(known), nil, nil},
		{"other resource types untouched", "test_thing", obj(known), []cty.Path{inputPass}, []cty.Path{inputPass}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := echoedSensitivePaths(tt.typ, tt.v, tt.paths)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
