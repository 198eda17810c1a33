package null

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

func TestNullResource(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	config := h.Config("null_resource", `triggers = { a = "1" }`)
	plan := h.Plan("null_resource", cty.NilVal, config)
	if plan.PlannedState.GetAttr("id").IsKnown() {
		t.Errorf("id should be unknown until apply")
	}
	created := h.Apply("null_resource", cty.NilVal, plan.PlannedState, config)
	if _, err := strconv.ParseUint(created.GetAttr("id").AsString(), 10, 64); err != nil {
		t.Errorf("id %q is not decimal", created.GetAttr("id").AsString())
	}
	h.AssertNoOp("null_resource", created, config)

	changed := h.Config("null_resource", `triggers = { a = "2" }`)
	replace := h.Plan("null_resource", created, changed)
	if diff := cmp.Diff([]string{"triggers"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}
	if replace.PlannedState.GetAttr("id").IsKnown() {
		t.Errorf("replacement id should be unknown")
	}
	h.Destroy("null_resource", created)
}

func TestNullDataSource(t *testing.T) {
	tests := []struct {
		name, config string
		want         map[string]cty.Value
	}{
		{"inputs copied", `inputs = { a = "1" }`, map[string]cty.Value{
			"inputs": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}), "outputs": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}),
			"has_computed_default": cty.StringVal("default"), "id": cty.StringVal("static"),
		}},
		{"nothing set", ``, map[string]cty.Value{
			"inputs": cty.NullVal(cty.Map(cty.String)), "outputs": cty.NullVal(cty.Map(cty.String)),
			"has_computed_default": cty.StringVal("default"), "id": cty.StringVal("static"),
		}},
		{"default given", `has_computed_default = "mine"`, map[string]cty.Value{
			"inputs": cty.NullVal(cty.Map(cty.String)), "outputs": cty.NullVal(cty.Map(cty.String)),
			"has_computed_default": cty.StringVal("mine"), "id": cty.StringVal("static"),
		}},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := h.ReadData("null_data_source", h.DataConfig("null_data_source", tt.config))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			gotSome := map[string]cty.Value{}
			for name := range tt.want {
				gotSome[name] = got.GetAttr(name)
			}
			if diff := cmp.Diff(tt.want, gotSome, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if _, err := strconv.ParseUint(got.GetAttr("random").AsString(), 10, 64); err != nil {
				t.Errorf("random %q is not decimal", got.GetAttr("random").AsString())
			}
		})
	}
	if !h.Schema.DataSources["null_data_source"].Block.Deprecated {
		t.Errorf("null_data_source should be marked deprecated")
	}
}
