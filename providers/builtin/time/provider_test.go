package time

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

func fixedClock() func() time.Time {
	return func() time.Time { return time.Date(2026, 11, 21, 10, 16, 21, 500, time.UTC) }
}

func TestTimeStatic(t *testing.T) {
	p := New().(*Provider)
	p.now = fixedClock()
	h := kittest.New(t, p, t.TempDir())

	config := h.Config("time_static", `triggers = { k = "v1" }`)
	created := h.Create("time_static", config)
	want := map[string]cty.Value{
		"id": cty.StringVal("2026-11-21T10:16:21Z"), "rfc3339": cty.StringVal("2026-11-21T10:16:21Z"),
		"year": cty.NumberIntVal(2026), "month": cty.NumberIntVal(11), "day": cty.NumberIntVal(21),
		"hour": cty.NumberIntVal(10), "minute": cty.NumberIntVal(16), "second": cty.NumberIntVal(21),
		"unix": cty.NumberIntVal(1795256181),
	}
	for name, w := range want {
		if !created.GetAttr(name).RawEquals(w) {
			t.Errorf("%s = %#v, want %#v", name, created.GetAttr(name), w)
		}
	}
	h.AssertNoOp("time_static", created, config)

	// As recorded from OpenTofu with hashicorp/time: a triggers change
	// replaces, and rfc3339 (now unknown) is a replace path too.
	replace := h.Plan("time_static", created, h.Config("time_static", `triggers = { k = "v2" }`))
	if diff := cmp.Diff([]string{"rfc3339", "triggers"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}
	for _, name := range []string{"id", "rfc3339", "year", "unix"} {
		if replace.PlannedState.GetAttr(name).IsKnown() {
			t.Errorf("%s should be unknown in the replacement plan", name)
		}
	}

	fixed := h.Create("time_static", h.Config("time_static", `rfc3339 = "2020-02-29T23:59:58Z"`))
	if !fixed.GetAttr("day").RawEquals(cty.NumberIntVal(29)) || !fixed.GetAttr("id").RawEquals(cty.StringVal("2020-02-29T23:59:58Z")) {
		t.Errorf("configured rfc3339 not honoured: %#v", fixed)
	}
	h.Destroy("time_static", fixed)
}

func TestTimeStaticValidate(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	diags := h.Validate("time_static", h.Config("time_static", `rfc3339 = "yesterday"`))
	if len(diags) != 1 || kittest.ReplacePaths([]cty.Path{diags[0].Attribute})[0] != "rfc3339" {
		t.Fatalf("want one error on rfc3339, got %v", diags)
	}
	unknown := h.Config("time_static", ``)
	m := unknown.AsValueMap()
	m["rfc3339"] = cty.UnknownVal(cty.String)
	if diags := h.Validate("time_static", cty.ObjectVal(m)); len(diags) > 0 {
		t.Errorf("unknown rfc3339 should be tolerated, got %v", diags)
	}
}

func TestTimeStaticImport(t *testing.T) {
	resp := New().ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: "time_static", ID: "2021-01-02T03:04:05Z"})
	if resp.Diagnostics.HasErrors() || !resp.ImportedResources[0].State.GetAttr("year").RawEquals(cty.NumberIntVal(2021)) {
		t.Fatalf("import: %v %v", resp.ImportedResources, resp.Diagnostics)
	}
}

func TestTimeSleep(t *testing.T) {
	p := New().(*Provider)
	p.now = fixedClock()
	h := kittest.New(t, p, t.TempDir())

	config := h.Config("time_sleep", `create_duration = "50ms"`)
	start := time.Now()
	created := h.Create("time_sleep", config)
	if elapsed := time.Since(start); elapsed < 50*time.Millisecond {
		t.Errorf("create returned after %s, want at least 50ms", elapsed)
	}
	if !created.GetAttr("id").RawEquals(cty.StringVal("2026-11-21T10:16:21Z")) {
		t.Errorf("id %#v", created.GetAttr("id"))
	}
	h.AssertNoOp("time_sleep", created, config)

	// Durations change in place; triggers replace.
	update := h.Plan("time_sleep", created, h.Config("time_sleep", `create_duration = "1h"`))
	if len(update.RequiresReplace) > 0 || !update.PlannedState.GetAttr("id").RawEquals(created.GetAttr("id")) {
		t.Errorf("duration change should update in place keeping id, got %v", update.RequiresReplace)
	}
	replace := h.Plan("time_sleep", created, h.Config("time_sleep", "create_duration = \"50ms\"\ntriggers = { a = \"b\" }"))
	if diff := cmp.Diff([]string{"triggers"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}

	diags := h.Validate("time_sleep", h.Config("time_sleep", `destroy_duration = "soon"`))
	if len(diags) != 1 || kittest.ReplacePaths([]cty.Path{diags[0].Attribute})[0] != "destroy_duration" {
		t.Errorf("want one error on destroy_duration, got %v", diags)
	}
}

func TestTimeSleepHonoursCancellation(t *testing.T) {
	p := New()
	h := kittest.New(t, p, t.TempDir())
	config := h.Config("time_sleep", `create_duration = "1h"`)
	plan := h.Plan("time_sleep", cty.NilVal, config)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "time_sleep", PriorState: cty.NullVal(sleepSchema.ImpliedType()), PlannedState: plan.PlannedState, Config: config,
	})
	if !resp.Diagnostics.HasErrors() {
		t.Fatalf("cancelled sleep should fail")
	}
}
