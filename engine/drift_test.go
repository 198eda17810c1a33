package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/local"
)

func TestDriftReportedAndRefreshOnlyApplies(t *testing.T) {
	p := newFake()
	h := newHarness(t, p, `
resource "test_thing" "a" {
  name = "alpha"
}
`)
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	applied, _ := h.current("test_thing.a")

	tests := []struct {
		name      string
		read      func(prior cty.Value) cty.Value
		wantDrift action.Action // 0: none
	}{
		{"unchanged is no drift", func(prior cty.Value) cty.Value { return prior }, 0},
		{"changed outside", func(prior cty.Value) cty.Value { return setAttr(prior, "size", cty.NumberIntVal(99)) }, action.Update},
		{"deleted outside", func(prior cty.Value) cty.Value { return cty.NullVal(prior.Type()) }, action.Delete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.ReadResourceFn = func(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
				return providers.ReadResourceResponse{NewState: tt.read(req.PriorState)}
			}
			defer func() { p.ReadResourceFn = nil }()
			pl := h.mustPlan(engine.PlanOpts{})
			var got action.Action
			for _, d := range pl.Drift {
				if d.Addr.String() == "test_thing.a" {
					got = d.Action
				}
			}
			if got != tt.wantDrift {
				t.Errorf("drift %v, want %v", got, tt.wantDrift)
			}
			if tt.wantDrift == action.Delete {
				if c := changeOf(t, pl, "test_thing.a"); c.Action != action.Create {
					t.Errorf("object deleted outside planned %s, want create", c.Action)
				}
			}

			ro := h.mustPlan(engine.PlanOpts{Mode: plan.RefreshOnlyMode})
			for _, c := range ro.Changes {
				if c.Action != action.NoOp {
					t.Errorf("refresh-only plan has a %s change for %s", c.Action, c.Addr)
				}
			}
			if tt.wantDrift != 0 && !ro.CanApply() {
				t.Errorf("refresh-only plan with drift cannot be applied")
			}
		})
	}

	// Applying a refresh-only plan persists the refreshed object.
	p.ReadResourceFn = func(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
		return providers.ReadResourceResponse{NewState: setAttr(req.PriorState, "size", cty.NumberIntVal(99))}
	}
	h.mustApply(h.mustPlan(engine.PlanOpts{Mode: plan.RefreshOnlyMode}))
	if n := len(p.ApplyCalls()); n != 1 {
		t.Errorf("refresh-only apply called ApplyResourceChange (%d calls in all, want the 1 create)", n)
	}
	got, _ := h.current("test_thing.a")
	if !got.GetAttr("size").RawEquals(cty.NumberIntVal(99)) || !got.GetAttr("id").RawEquals(applied.GetAttr("id")) {
		t.Errorf("state after refresh-only apply = %#v, want the refreshed object", got)
	}
}

// local_file is a real case: editing or deleting the file outside tenet
// shows as drift, and the plan puts it back.
func TestLocalFileDrift(t *testing.T) {
	dir := t.TempDir()
	src := `
resource "local_file" "f" {
  filename = "${path.module}/hello.txt"
  content  = "hello\n"
}
`
	fsys := fstest.MapFS{"main.tf": {Data: []byte(src)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	eng := &engine.Engine{
		Providers:  providers.Registry{addrs.NewDefaultProvider("local"): func() (providers.Interface, error) { return local.New(), nil }},
		Rules:      defaultRules(t),
		FS:         fsys,
		WorkingDir: dir,
	}
	ctx := context.Background()
	pl, diags := eng.Plan(ctx, cfg, nil, engine.PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	st, diags := eng.Apply(ctx, cfg, pl, engine.ApplyOpts{}, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	file := filepath.Join(dir, "hello.txt")
	tests := []struct {
		name      string
		tamper    func()
		wantDrift action.Action
	}{
		{"untouched", func() {}, 0},
		{"edited", func() { os.WriteFile(file, []byte("changed\n"), 0o644) }, action.Delete},
		{"deleted", func() { os.Remove(file) }, action.Delete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.tamper()
			pl, diags := eng.Plan(ctx, cfg, st, engine.PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			var drift action.Action
			for _, d := range pl.Drift {
				drift = d.Action
			}
			if drift != tt.wantDrift {
				t.Errorf("drift %v, want %v", drift, tt.wantDrift)
			}
			want := action.NoOp
			if tt.wantDrift != 0 {
				want = action.Create
			}
			if c := changeOf(t, pl, "local_file.f"); c.Action != want {
				t.Errorf("planned %s, want %s", c.Action, want)
			}
			if _, diags := eng.Apply(ctx, cfg, pl, engine.ApplyOpts{}, nil); diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got, _ := os.ReadFile(file); string(got) != "hello\n" {
				t.Errorf("file after apply = %q, want it put back", got)
			}
		})
	}
}
