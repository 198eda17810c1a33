package plan_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"github.com/tenetplan/tenet/state"
)

func TestReasonUIReason(t *testing.T) {
	cases := map[plan.Reason]string{
		plan.ReasonNone:                         "",
		plan.ReasonReplaceBecauseTainted:        "tainted",
		plan.ReasonReplaceByRequest:             "requested",
		plan.ReasonReplaceByTriggers:            "replace_triggered_by",
		plan.ReasonReplaceBecauseCannotUpdate:   "cannot_update",
		plan.ReasonDeleteBecauseEachKey:         "delete_because_each_key",
		plan.ReasonReadBecauseDependencyPending: "read_because_dependency_pending",
		plan.Reason("made_up"):                  "unknown",
	}
	for r, want := range cases {
		if got := r.UIReason(); got != want {
			t.Errorf("%q.UIReason() = %q, want %q", r, got, want)
		}
	}
}

func TestSummary(t *testing.T) {
	imp := plantest.Change(t, "terraform_data.i", action.NoOp, cty.NilVal, cty.NilVal)
	imp.Importing = &plan.Importing{ID: "i"}
	p := &plan.Plan{Changes: []*plan.ResourceInstanceChange{
		plantest.Change(t, "terraform_data.c", action.Create, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.u", action.Update, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.r1", action.DeleteThenCreate, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.r2", action.CreateThenDelete, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.d", action.Delete, cty.NilVal, cty.NilVal),
		plantest.Change(t, "data.terraform_remote_state.d", action.Delete, cty.NilVal, cty.NilVal),
		plantest.Change(t, "data.terraform_remote_state.r", action.Read, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.f", action.Forget, cty.NilVal, cty.NilVal),
		plantest.Change(t, "terraform_data.n", action.NoOp, cty.NilVal, cty.NilVal),
		imp,
	}}
	want := plan.Summary{Import: 1, Add: 3, Change: 1, Destroy: 3, Forget: 1}
	if diff := cmp.Diff(want, p.Summary()); diff != "" {
		t.Error(diff)
	}
}

func TestCanApply(t *testing.T) {
	noop := plantest.Change(t, "terraform_data.a", action.NoOp, cty.NilVal, cty.NilVal)
	moved := plantest.Change(t, "terraform_data.b", action.NoOp, cty.NilVal, cty.NilVal)
	moved.PrevRunAddr = plantest.InstAddr(t, "terraform_data.a")
	imported := plantest.Change(t, "terraform_data.b", action.NoOp, cty.NilVal, cty.NilVal)
	imported.Importing = &plan.Importing{ID: "x"}

	stateWith := func(attrs string) *state.State {
		s := &state.State{Modules: map[string]*state.Module{}}
		plantest.PutObject(s, plantest.InstAddr(t, "terraform_data.a"), plantest.TerraformProvider, state.NotDeposed, &state.ObjectSrc{AttrsJSON: []byte(attrs), Status: state.ObjectReady})
		return s
	}
	withData := stateWith(`{"id":"a"}`)
	plantest.PutObject(withData, plantest.InstAddr(t, "data.terraform_remote_state.x"), plantest.TerraformProvider, state.NotDeposed, &state.ObjectSrc{AttrsJSON: []byte(`{}`)})

	cases := map[string]struct {
		p    *plan.Plan
		want bool
	}{
		"empty":                  {&plan.Plan{}, false},
		"only no-ops":            {&plan.Plan{Changes: []*plan.ResourceInstanceChange{noop}}, false},
		"create":                 {&plan.Plan{Changes: []*plan.ResourceInstanceChange{plantest.Change(t, "terraform_data.a", action.Create, cty.NilVal, cty.NilVal)}}, true},
		"errored":                {&plan.Plan{Errored: true, Changes: []*plan.ResourceInstanceChange{plantest.Change(t, "terraform_data.a", action.Create, cty.NilVal, cty.NilVal)}}, false},
		"move only":              {&plan.Plan{Changes: []*plan.ResourceInstanceChange{moved}}, true},
		"import only":            {&plan.Plan{Changes: []*plan.ResourceInstanceChange{imported}}, true},
		"output change":          {&plan.Plan{OutputChanges: []*plan.OutputChange{{Name: "o", Action: action.Create}}}, true},
		"output no-op":           {&plan.Plan{OutputChanges: []*plan.OutputChange{{Name: "o", Action: action.NoOp}}}, false},
		"refresh-only same":      {&plan.Plan{Mode: plan.RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{ "id": "a" }`)}, false},
		"refresh-only drift":     {&plan.Plan{Mode: plan.RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{"id":"b"}`)}, true},
		"refresh-only data only": {&plan.Plan{Mode: plan.RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: withData}, false},
		"refresh-only gone":      {&plan.Plan{Mode: plan.RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: &state.State{}}, true},
		"normal drift only":      {&plan.Plan{PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{"id":"b"}`)}, false},
	}
	for name, tc := range cases {
		if got := tc.p.CanApply(); got != tc.want {
			t.Errorf("%s: CanApply = %v, want %v", name, got, tc.want)
		}
	}
}

func TestFindChange(t *testing.T) {
	cur := plantest.Change(t, "terraform_data.a", action.NoOp, cty.NilVal, cty.NilVal)
	dep := plantest.Change(t, "terraform_data.a", action.Delete, cty.NilVal, cty.NilVal)
	dep.DeposedKey = "00000001"
	p := &plan.Plan{Changes: []*plan.ResourceInstanceChange{cur, dep}, OutputChanges: []*plan.OutputChange{{Name: "x"}}}
	if got := p.FindChange(plantest.InstAddr(t, "terraform_data.a"), "00000001"); got != dep {
		t.Errorf("deposed lookup gave %v", got)
	}
	if got := p.FindChange(plantest.InstAddr(t, "terraform_data.a"), state.NotDeposed); got != cur {
		t.Errorf("current lookup gave %v", got)
	}
	if got := p.FindChange(plantest.InstAddr(t, "terraform_data.b"), state.NotDeposed); got != nil {
		t.Errorf("missing lookup gave %v", got)
	}
	idx := plan.IndexChanges(p.Changes)
	if idx["terraform_data.a (deposed 00000001)"] != dep || idx["terraform_data.a"] != cur {
		t.Errorf("IndexChanges = %v", idx)
	}
	if p.FindOutputChange("x") == nil || p.FindOutputChange("y") != nil {
		t.Error("FindOutputChange")
	}
}
