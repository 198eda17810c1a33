package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

func TestActionNames(t *testing.T) {
	type names struct {
		JSON     []string
		Symbol   string
		UIAction string
	}
	cases := map[Action]names{
		NoOp:             {[]string{"no-op"}, "   ", "noop"},
		Create:           {[]string{"create"}, "  +", "create"},
		Read:             {[]string{"read"}, " <=", "read"},
		Update:           {[]string{"update"}, "  ~", "update"},
		DeleteThenCreate: {[]string{"delete", "create"}, "-/+", "replace"},
		CreateThenDelete: {[]string{"create", "delete"}, "+/-", "replace"},
		Delete:           {[]string{"delete"}, "  -", "delete"},
		Forget:           {[]string{"forget"}, "  .", "remove"},
	}
	for a, want := range cases {
		t.Run(a.String(), func(t *testing.T) {
			got := names{a.JSONActions(), a.Symbol(), a.UIAction()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Error(diff)
			}
			parsed, err := parseAction(a.String())
			if err != nil || parsed != a {
				t.Errorf("parseAction(%q) = %v, %v", a.String(), parsed, err)
			}
		})
	}
	if Action('?').Valid() || Action('?').JSONActions() != nil {
		t.Error("an undeclared action is accepted")
	}
}

func TestChangeUIAction(t *testing.T) {
	moved := change(t, "terraform_data.b", NoOp, cty.NilVal, cty.NilVal)
	moved.PrevRunAddr = instAddr(t, "terraform_data.a")
	moved.Importing = &Importing{ID: "x"}
	imported := change(t, "terraform_data.b", NoOp, cty.NilVal, cty.NilVal)
	imported.Importing = &Importing{ID: "x"}
	movedUpdate := change(t, "terraform_data.b", Update, cty.NilVal, cty.NilVal)
	movedUpdate.PrevRunAddr = instAddr(t, "terraform_data.a")
	noPrev := change(t, "terraform_data.b", NoOp, cty.NilVal, cty.NilVal)
	noPrev.PrevRunAddr = addrs.AbsResourceInstance{}
	cases := map[string]struct {
		c    *ResourceInstanceChange
		want string
	}{
		"move wins over import": {moved, "move"},
		"import":                {imported, "import"},
		"moved update":          {movedUpdate, "update"},
		"no previous address":   {noPrev, "noop"},
	}
	for name, tc := range cases {
		if got := tc.c.UIAction(); got != tc.want {
			t.Errorf("%s: UIAction = %q, want %q", name, got, tc.want)
		}
	}
}

func TestReasonUIReason(t *testing.T) {
	cases := map[Reason]string{
		ReasonNone:                         "",
		ReasonReplaceBecauseTainted:        "tainted",
		ReasonReplaceByRequest:             "requested",
		ReasonReplaceByTriggers:            "replace_triggered_by",
		ReasonReplaceBecauseCannotUpdate:   "cannot_update",
		ReasonDeleteBecauseEachKey:         "delete_because_each_key",
		ReasonReadBecauseDependencyPending: "read_because_dependency_pending",
		Reason("made_up"):                  "unknown",
	}
	for r, want := range cases {
		if got := r.UIReason(); got != want {
			t.Errorf("%q.UIReason() = %q, want %q", r, got, want)
		}
	}
}

func TestSummary(t *testing.T) {
	imp := change(t, "terraform_data.i", NoOp, cty.NilVal, cty.NilVal)
	imp.Importing = &Importing{ID: "i"}
	p := &Plan{Changes: []*ResourceInstanceChange{
		change(t, "terraform_data.c", Create, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.u", Update, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.r1", DeleteThenCreate, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.r2", CreateThenDelete, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.d", Delete, cty.NilVal, cty.NilVal),
		change(t, "data.terraform_remote_state.d", Delete, cty.NilVal, cty.NilVal),
		change(t, "data.terraform_remote_state.r", Read, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.f", Forget, cty.NilVal, cty.NilVal),
		change(t, "terraform_data.n", NoOp, cty.NilVal, cty.NilVal),
		imp,
	}}
	want := Summary{Import: 1, Add: 3, Change: 1, Destroy: 3, Forget: 1}
	if diff := cmp.Diff(want, p.Summary()); diff != "" {
		t.Error(diff)
	}
}

func TestCanApply(t *testing.T) {
	noop := change(t, "terraform_data.a", NoOp, cty.NilVal, cty.NilVal)
	moved := change(t, "terraform_data.b", NoOp, cty.NilVal, cty.NilVal)
	moved.PrevRunAddr = instAddr(t, "terraform_data.a")
	imported := change(t, "terraform_data.b", NoOp, cty.NilVal, cty.NilVal)
	imported.Importing = &Importing{ID: "x"}

	stateWith := func(attrs string) *state.State {
		s := &state.State{Modules: map[string]*state.Module{}}
		putObject(s, instAddr(t, "terraform_data.a"), terraformProvider, state.NotDeposed, &state.ObjectSrc{AttrsJSON: []byte(attrs), Status: state.ObjectReady})
		return s
	}
	withData := stateWith(`{"id":"a"}`)
	putObject(withData, instAddr(t, "data.terraform_remote_state.x"), terraformProvider, state.NotDeposed, &state.ObjectSrc{AttrsJSON: []byte(`{}`)})

	cases := map[string]struct {
		p    *Plan
		want bool
	}{
		"empty":                  {&Plan{}, false},
		"only no-ops":            {&Plan{Changes: []*ResourceInstanceChange{noop}}, false},
		"create":                 {&Plan{Changes: []*ResourceInstanceChange{change(t, "terraform_data.a", Create, cty.NilVal, cty.NilVal)}}, true},
		"errored":                {&Plan{Errored: true, Changes: []*ResourceInstanceChange{change(t, "terraform_data.a", Create, cty.NilVal, cty.NilVal)}}, false},
		"move only":              {&Plan{Changes: []*ResourceInstanceChange{moved}}, true},
		"import only":            {&Plan{Changes: []*ResourceInstanceChange{imported}}, true},
		"output change":          {&Plan{OutputChanges: []*OutputChange{{Name: "o", Action: Create}}}, true},
		"output no-op":           {&Plan{OutputChanges: []*OutputChange{{Name: "o", Action: NoOp}}}, false},
		"refresh-only same":      {&Plan{Mode: RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{ "id": "a" }`)}, false},
		"refresh-only drift":     {&Plan{Mode: RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{"id":"b"}`)}, true},
		"refresh-only data only": {&Plan{Mode: RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: withData}, false},
		"refresh-only gone":      {&Plan{Mode: RefreshOnlyMode, PrevRunState: stateWith(`{"id":"a"}`), PriorState: &state.State{}}, true},
		"normal drift only":      {&Plan{PrevRunState: stateWith(`{"id":"a"}`), PriorState: stateWith(`{"id":"b"}`)}, false},
	}
	for name, tc := range cases {
		if got := tc.p.CanApply(); got != tc.want {
			t.Errorf("%s: CanApply = %v, want %v", name, got, tc.want)
		}
	}
}

func TestFindChange(t *testing.T) {
	cur := change(t, "terraform_data.a", NoOp, cty.NilVal, cty.NilVal)
	dep := change(t, "terraform_data.a", Delete, cty.NilVal, cty.NilVal)
	dep.DeposedKey = "00000001"
	p := &Plan{Changes: []*ResourceInstanceChange{cur, dep}, OutputChanges: []*OutputChange{{Name: "x"}}}
	if got := p.FindChange(instAddr(t, "terraform_data.a"), "00000001"); got != dep {
		t.Errorf("deposed lookup gave %v", got)
	}
	if got := p.FindChange(instAddr(t, "terraform_data.a"), state.NotDeposed); got != cur {
		t.Errorf("current lookup gave %v", got)
	}
	if got := p.FindChange(instAddr(t, "terraform_data.b"), state.NotDeposed); got != nil {
		t.Errorf("missing lookup gave %v", got)
	}
	idx := IndexChanges(p.Changes)
	if idx["terraform_data.a (deposed 00000001)"] != dep || idx["terraform_data.a"] != cur {
		t.Errorf("IndexChanges = %v", idx)
	}
	if p.FindOutputChange("x") == nil || p.FindOutputChange("y") != nil {
		t.Error("FindOutputChange")
	}
}
