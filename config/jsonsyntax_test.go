package config

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// In JSON syntax a variable's type is a string holding the type
// expression; it is not the quoted-type mistake of native syntax.
func TestJSONVariableTypes(t *testing.T) {
	cases := []struct {
		name, typ string
		want      cty.Type
	}{
		{"string", `"string"`, cty.String},
		{"list of strings", `"list(string)"`, cty.List(cty.String)},
		{"map of numbers", `"map(number)"`, cty.Map(cty.Number)},
		{"object", `"object({a = string})"`, cty.Object(map[string]cty.Type{"a": cty.String})},
		{"any", `"any"`, cty.DynamicPseudoType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := `{"variable": {"v": {"type": ` + tc.typ + `}}}`
			cfg, diags := Load(fstest.MapFS{"main.tf.json": {Data: []byte(src)}}, ".")
			if diags.HasErrors() {
				t.Fatalf("load: %s", diags.Error())
			}
			got := cfg.Root.Variables["v"].ConstraintType
			if !got.Equals(tc.want) {
				t.Errorf("type: got %s, want %s", got.FriendlyName(), tc.want.FriendlyName())
			}
		})
	}
	// Native syntax still refuses the quoted form, with a hint.
	_, diags := Load(fstest.MapFS{"main.tf": {Data: []byte("variable \"v\" {\n  type = \"string\"\n}\n")}}, ".")
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	if diff := cmp.Diff([]string{"Invalid quoted type constraints"}, got); diff != "" {
		t.Errorf("native quoted type (-want +got):\n%s", diff)
	}
}
