package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/providertest"
	"github.com/tenetplan/tenet/state"
)

const providerName = `"registry.opentofu.org/hashicorp/test"`

// setAttr returns obj with one top-level attribute replaced.
func setAttr(obj cty.Value, name string, v cty.Value) cty.Value {
	m := obj.AsValueMap()
	m[name] = v
	return cty.ObjectVal(m)
}

// misbehaving is a fake provider whose hooks break the protocol only once
// the test says so (after the setup run) and, for some cases, only while
// applying.
type misbehaving struct {
	*providertest.Provider
	armed    atomic.Bool
	applying atomic.Bool
}

func (m *misbehaving) on() bool { return m.armed.Load() }

// plansAttr makes the provider plan as it should, but with attr set to v.
func plansAttr(attr string, v cty.Value) func(m *misbehaving) {
	return func(m *misbehaving) {
		m.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			resp := m.DefaultPlan(req)
			resp.PlannedState = setAttr(resp.PlannedState, attr, v)
			return resp
		}
	}
}

func TestProviderContractViolations(t *testing.T) {
	type tc struct {
		name string
		// setup, when set, is applied first with a well-behaved provider.
		setup  string
		config string
		break_ func(m *misbehaving)
		// atApply: the error comes from the apply, not the plan.
		atApply bool
		summary string
		details []string
		check   func(t *testing.T, h *harness)
	}
	tests := []tc{
		{
			name: "planned value differs from config", config: oneThing,
			break_:  plansAttr("name", cty.StringVal("other")),
			summary: "Provider produced invalid plan",
			details: []string{providerName, "test_thing.a.name", `"other"`},
		},
		{
			name: "planned value for a non-computed attribute", config: oneThing,
			break_:  plansAttr("tags", cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})),
			summary: "Provider produced invalid plan",
			details: []string{providerName, "test_thing.a.tags", "non-computed"},
		},
		{
			name: "planned object of the wrong type", config: oneThing,
			break_: func(m *misbehaving) {
				m.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("alpha")})}
				}
			},
			summary: "Provider produced invalid plan",
			details: []string{providerName, "test_thing.a"},
		},
		{
			name: "sensitive planned value is not shown", config: `
resource "test_thing" "a" {
  name   = "alpha"
  secret = "hunter2"
}
`,
			break_:  plansAttr("secret", cty.StringVal("swordfish")),
			summary: "Provider produced invalid plan",
			details: []string{providerName, "test_thing.a.secret", "sensitive planned value"},
		},
		{
			name: "refreshed object of the wrong type", setup: oneThing, config: oneThing,
			break_: func(m *misbehaving) {
				m.ReadResourceFn = func(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
					return providers.ReadResourceResponse{NewState: cty.ObjectVal(map[string]cty.Value{"name": cty.True})}
				}
			},
			summary: "Provider produced invalid object",
			details: []string{providerName, "test_thing.a"},
		},
		{
			name: "final plan changes a known value", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					resp := m.DefaultPlan(req)
					size := int64(1)
					if m.applying.Load() {
						size = 2
					}
					resp.PlannedState = setAttr(resp.PlannedState, "size", cty.NumberIntVal(size))
					return resp
				}
			},
			summary: "Provider produced inconsistent final plan",
			details: []string{providerName, "test_thing.a.size"},
			check: func(t *testing.T, h *harness) {
				if n := len(h.p.ApplyCalls()); n != 0 {
					t.Errorf("ApplyResourceChange called %d times after an inconsistent final plan", n)
				}
			},
		},
		{
			name: "final plan turns an update into a replace", setup: oneThing, atApply: true,
			config: `
resource "test_thing" "a" {
  name = "beta"
}
`,
			break_: func(m *misbehaving) {
				m.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					resp := m.DefaultPlan(req)
					if m.applying.Load() {
						resp.RequiresReplace = []cty.Path{cty.GetAttrPath("name")}
					}
					return resp
				}
			},
			summary: "Provider produced inconsistent final plan",
			details: []string{providerName, "test_thing.a.name", "Update", "DeleteThenCreate"},
			check: func(t *testing.T, h *harness) {
				v, _ := h.current("test_thing.a")
				if got := v.GetAttr("name").AsString(); got != "alpha" {
					t.Errorf("object after refused update has name %q, want the old alpha", got)
				}
			},
		},
		{
			name: "applied value differs from plan", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					resp := m.DefaultApply(req)
					resp.NewState = setAttr(resp.NewState, "name", cty.StringVal("other"))
					return resp
				}
			},
			summary: "Provider produced inconsistent result after apply",
			details: []string{providerName, "test_thing.a.name"},
			check: func(t *testing.T, h *harness) {
				_, obj := h.current("test_thing.a")
				if obj == nil || obj.Status != state.ObjectTainted {
					t.Errorf("object from an inconsistent create = %+v, want it saved tainted", obj)
				}
			},
		},
		{
			name: "applied object keeps unknowns", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					v := setAttr(m.FillUnknowns(req.PlannedState), "id", cty.UnknownVal(cty.String))
					v = setAttr(v, "size", cty.UnknownVal(cty.Number))
					return providers.ApplyResourceChangeResponse{NewState: v}
				}
			},
			summary: "Provider returned invalid result object after apply",
			details: []string{providerName, "test_thing.a.size"},
			check: func(t *testing.T, h *harness) {
				v, _ := h.current("test_thing.a")
				if v == cty.NilVal || !v.GetAttr("id").IsNull() || !v.GetAttr("size").IsNull() {
					t.Errorf("saved object %#v, want unknowns saved as null", v)
				}
			},
		},
		{
			name: "no object and no error", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{}
				}
			},
			summary: "Provider produced invalid object",
			details: []string{providerName, "test_thing.a"},
		},
		{
			name: "null object after create", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: cty.NullVal(thingSchema.ImpliedType())}
				}
			},
			summary: "Provider returned invalid result object after apply",
			details: []string{providerName, "test_thing.a", "Create"},
		},
		{
			name: "applied object of the wrong type", config: oneThing, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})}
				}
			},
			summary: "Provider produced invalid object",
			details: []string{providerName, "test_thing.a"},
			check: func(t *testing.T, h *harness) {
				if v, _ := h.current("test_thing.a"); v != cty.NilVal {
					t.Errorf("unusable object was saved: %#v", v)
				}
			},
		},
		{
			name: "object left after delete", setup: oneThing, config: `# nothing`, atApply: true,
			break_: func(m *misbehaving) {
				m.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: req.PriorState}
				}
			},
			summary: "Provider returned invalid result object after apply",
			details: []string{providerName, "test_thing.a"},
			check: func(t *testing.T, h *harness) {
				if v, _ := h.current("test_thing.a"); v == cty.NilVal {
					t.Errorf("object whose delete failed was dropped from the state")
				}
			},
		},
		{
			name: "data source returns null", atApply: false, config: `
data "test_info" "d" {
  name = "x"
}
`,
			break_: func(m *misbehaving) {
				m.ReadDataSourceFn = func(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
					return providers.ReadDataSourceResponse{State: cty.NullVal(infoSchema.ImpliedType())}
				}
			},
			summary: "Provider produced null object",
			details: []string{providerName, "data.test_info.d"},
		},
		{
			name: "deferred data source returns unknowns", atApply: true, config: oneThing + `
data "test_info" "d" {
  name = test_thing.a.id
}
`,
			break_: func(m *misbehaving) {
				m.ReadDataSourceFn = func(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
					return providers.ReadDataSourceResponse{State: cty.ObjectVal(map[string]cty.Value{"name": req.Config.GetAttr("name"), "value": cty.UnknownVal(cty.String)})}
				}
			},
			summary: "Provider produced invalid object",
			details: []string{providerName, "data.test_info.d.value"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &misbehaving{Provider: newFake()}
			h := newHarness(t, m.Provider, tt.config)
			if tt.setup != "" {
				h.setConfig(tt.setup)
				h.mustApply(h.mustPlan(engine.PlanOpts{}))
				h.setConfig(tt.config)
			}
			m.Provider = newFakeLike(m.Provider)
			h.p = m.Provider
			h.eng.Providers = providers.Registry{testProviderAddr: m.Factory()}
			tt.break_(m)

			p, diags := h.plan(engine.PlanOpts{})
			if !tt.atApply {
				if !diags.HasErrors() {
					t.Fatalf("plan succeeded, want %q", tt.summary)
				}
				wantDiag(t, diags, tt.summary, tt.details...)
				return
			}
			if diags.HasErrors() {
				t.Fatalf("plan failed: %s", diags.Error())
			}
			m.applying.Store(true)
			diags = h.apply(p, nil)
			wantDiag(t, diags, tt.summary, tt.details...)
			if tt.check != nil {
				tt.check(t, h)
			}
		})
	}
}

// newFakeLike returns a fresh fake with the same schema, so a test sees
// only the calls made after its setup.
func newFakeLike(p *providertest.Provider) *providertest.Provider {
	q := newFake()
	q.Schema = p.Schema
	return q
}

// failingRecorder fails to record from the nth operation on.
type failingRecorder struct {
	failFrom int32
	calls    atomic.Int32
}

func (r *failingRecorder) RecordObject(addrs.AbsResourceInstance, state.DeposedKey, *state.ObjectSrc, addrs.AbsProviderConfig) error {
	if r.calls.Add(1) >= r.failFrom {
		return errors.New("no space left on device")
	}
	return nil
}

func TestApplyStopsWhenStateCannotBeRecorded(t *testing.T) {
	var cfg strings.Builder
	cfg.WriteString(oneThing)
	for _, name := range []string{"b", "c", "d", "e"} {
		prev := map[string]string{"b": "a", "c": "b", "d": "c", "e": "d"}[name]
		cfg.WriteString("resource \"test_thing\" \"" + name + "\" {\n  name = test_thing." + prev + ".id\n}\n")
	}
	p := newFake()
	h := newHarness(t, p, cfg.String())
	pl := h.mustPlan(engine.PlanOpts{})
	rec := &failingRecorder{failFrom: 2}
	diags := h.apply(pl, rec)
	wantDiag(t, diags, "Failed to persist state", "no space left on device")
	if n := len(p.ApplyCalls()); n != 2 {
		t.Errorf("%d objects created, want 2: no new work after the state could not be recorded", n)
	}
	// The returned state still holds both objects that were created, so
	// the caller can write them to errored.tfstate.
	for _, addr := range []string{"test_thing.a", "test_thing.b"} {
		if v, _ := h.current(addr); v == cty.NilVal {
			t.Errorf("%s missing from the returned state", addr)
		}
	}
}

func TestCreateBeforeDestroyFailures(t *testing.T) {
	const cbd = `
resource "test_thing" "a" {
  name = "%s"
  lifecycle {
    create_before_destroy = true
  }
}
`
	cfgFor := func(name string) string { return strings.Replace(cbd, "%s", name, 1) }
	replaceOnName := func(m *providertest.Provider) {
		m.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			resp := m.DefaultPlan(req)
			if !req.PriorState.IsNull() && !req.PriorState.GetAttr("name").RawEquals(req.Config.GetAttr("name")) {
				resp.RequiresReplace = []cty.Path{cty.GetAttrPath("name")}
			}
			return resp
		}
	}
	errDiag := func(summary string) providers.Diagnostics {
		var d providers.Diagnostics
		return d.Errorf(nil, summary, "The fake failed on purpose.")
	}
	tests := []struct {
		name        string
		apply       func(m *providertest.Provider, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
		wantCurrent string // name of the current object; "" = none
		wantTainted bool
		wantDeposed int
	}{
		{
			name: "create fails without object restores the old one",
			apply: func(m *providertest.Provider, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				if req.PriorState.IsNull() {
					return providers.ApplyResourceChangeResponse{Diagnostics: errDiag("Create failed")}
				}
				return m.DefaultApply(req)
			},
			wantCurrent: "old",
		},
		{
			name: "create returns a partial object",
			apply: func(m *providertest.Provider, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				if req.PriorState.IsNull() {
					return providers.ApplyResourceChangeResponse{NewState: m.FillUnknowns(req.PlannedState), Diagnostics: errDiag("Create half failed")}
				}
				return m.DefaultApply(req)
			},
			wantCurrent: "new", wantTainted: true, wantDeposed: 1,
		},
		{
			name: "destroy of the deposed object fails",
			apply: func(m *providertest.Provider, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				if req.PlannedState.IsNull() {
					return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: errDiag("Delete failed")}
				}
				return m.DefaultApply(req)
			},
			wantCurrent: "new", wantDeposed: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newFake()
			replaceOnName(p)
			h := newHarness(t, p, cfgFor("old"))
			h.mustApply(h.mustPlan(engine.PlanOpts{}))
			h.setConfig(cfgFor("new"))
			pl := h.mustPlan(engine.PlanOpts{})
			if c := changeOf(t, pl, "test_thing.a"); c.Action != action.CreateThenDelete {
				t.Fatalf("planned %s, want CreateThenDelete", c.Action)
			}
			p.ApplyResourceChangeFn = func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return tt.apply(p, req)
			}
			if diags := h.apply(pl, nil); !diags.HasErrors() {
				t.Fatalf("apply succeeded, want the fake's error")
			}
			a, _ := addrs.ParseAbsResourceInstanceStr("test_thing.a")
			ri := h.state.ResourceInstance(a)
			if ri == nil {
				t.Fatalf("instance gone from state")
			}
			got := ""
			if ri.Current != nil {
				v, _ := h.current("test_thing.a")
				got = v.GetAttr("name").AsString()
				if tainted := ri.Current.Status == state.ObjectTainted; tainted != tt.wantTainted {
					t.Errorf("current tainted = %v, want %v", tainted, tt.wantTainted)
				}
			}
			if got != tt.wantCurrent {
				t.Errorf("current object %q, want %q", got, tt.wantCurrent)
			}
			if len(ri.Deposed) != tt.wantDeposed {
				t.Errorf("%d deposed objects, want %d", len(ri.Deposed), tt.wantDeposed)
			}
			if tt.wantDeposed == 0 {
				return
			}
			// The next plan deletes the leftover deposed object.
			p.ApplyResourceChangeFn = nil
			next := h.mustPlan(engine.PlanOpts{})
			var deletes int
			for _, c := range next.Changes {
				if c.DeposedKey != state.NotDeposed && c.Action == action.Delete {
					deletes++
				}
			}
			if deletes != 1 {
				t.Errorf("next plan has %d deposed deletes, want 1", deletes)
			}
		})
	}
}

// TestDeposedLeftoverGoesAfterTheNewObject: with create_before_destroy, an
// instance left with only a deposed object (a replacement that failed
// half-way) is created again before the leftover is destroyed, as
// OpenTofu orders them.
func TestDeposedLeftoverGoesAfterTheNewObject(t *testing.T) {
	p := newFake()
	h := newHarness(t, p, `
resource "test_thing" "a" {
  name = "one"
  lifecycle {
    create_before_destroy = true
  }
}
`)
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	a, _ := addrs.ParseAbsResourceInstanceStr("test_thing.a")
	h.state.DeposeResourceInstanceObject(a)
	pl := h.mustPlan(engine.PlanOpts{})
	for range 5 { // the walk runs independent nodes concurrently
		before := len(p.ApplyCalls())
		h2 := *h
		h2.state = h.state.DeepCopy()
		h2.mustApply(pl)
		var order []string
		for _, req := range p.ApplyCalls()[before:] {
			switch {
			case req.PriorState.IsNull():
				order = append(order, "create")
			case req.PlannedState.IsNull():
				order = append(order, "delete")
			}
		}
		if got := strings.Join(order, ", "); got != "create, delete" {
			t.Fatalf("apply order %q, want \"create, delete\"", got)
		}
	}
}
