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
