package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/providertest"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// The fake provider lives at registry.opentofu.org/hashicorp/test, the
// provider a "test_*" resource type implies.
var testProviderAddr = addrs.NewDefaultProvider("test")

// thingSchema exercises every shape ProposedNew and the checks handle.
var thingSchema = &providers.Block{
	Attributes: map[string]*providers.Attribute{
		"id":     {Type: cty.String, Computed: true},
		"name":   {Type: cty.String, Required: true},
		"size":   {Type: cty.Number, Optional: true, Computed: true},
		"secret": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":   {Type: cty.Map(cty.String), Optional: true},
		"disks": {Optional: true, NestedType: &providers.Object{Nesting: providers.NestingList, Attributes: map[string]*providers.Attribute{
			"size": {Type: cty.Number, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
	},
	BlockTypes: map[string]*providers.NestedBlock{
		"single": {Nesting: providers.NestingSingle, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"v": {Type: cty.String, Optional: true},
		}}},
		"group": {Nesting: providers.NestingGroup, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"v": {Type: cty.String, Optional: true, Computed: true},
		}}},
		"rule": {Nesting: providers.NestingList, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"port": {Type: cty.Number, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
		"member": {Nesting: providers.NestingSet, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"name": {Type: cty.String, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
		"label": {Nesting: providers.NestingMap, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"text": {Type: cty.String, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
	},
}

var infoSchema = &providers.Block{
	Attributes: map[string]*providers.Attribute{
		"name":  {Type: cty.String, Required: true},
		"value": {Type: cty.String, Computed: true},
	},
}

func newFake() *providertest.Provider {
	return providertest.New(map[string]*providers.Block{"test_thing": thingSchema}, map[string]*providers.Block{"test_info": infoSchema})
}

// harness runs plans and applies of one configuration against a fake
// provider, carrying the state from one run to the next as the CLI does.
type harness struct {
	t     *testing.T
	p     *providertest.Provider
	eng   *engine.Engine
	cfg   *config.Config
	state *state.State
}

var (
	rulesOnce sync.Once
	rulesEng  *rules.Engine
	rulesErr  hcl.Diagnostics
)

func defaultRules(t *testing.T) *rules.Engine {
	t.Helper()
	rulesOnce.Do(func() { rulesEng, rulesErr = rules.New(context.Background(), rules.Options{}) })
	if rulesErr.HasErrors() {
		t.Fatalf("compiling rules: %s", rulesErr.Error())
	}
	return rulesEng
}

func newHarness(t *testing.T, p *providertest.Provider, mainTF string) *harness {
	t.Helper()
	h := &harness{t: t, p: p, state: state.NewState()}
	h.eng = &engine.Engine{
		Providers:  providers.Registry{testProviderAddr: p.Factory()},
		Rules:      defaultRules(t),
		WorkingDir: t.TempDir(),
		Version:    "0.0.0-test",
	}
	h.setConfig(mainTF)
	return h
}

func (h *harness) setConfig(mainTF string) {
	h.t.Helper()
	fsys := fstest.MapFS{"main.tf": {Data: []byte(mainTF)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		h.t.Fatalf("loading configuration: %s", diags.Error())
	}
	h.cfg = cfg
	h.eng.FS = fsys
}

func (h *harness) plan(opts engine.PlanOpts) (*plan.Plan, hcl.Diagnostics) {
	h.t.Helper()
	if opts.Timestamp.IsZero() {
		opts.Timestamp = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	}
	return h.eng.Plan(context.Background(), h.cfg, h.state, opts)
}

func (h *harness) mustPlan(opts engine.PlanOpts) *plan.Plan {
	h.t.Helper()
	p, diags := h.plan(opts)
	if diags.HasErrors() {
		h.t.Fatalf("plan failed: %s", diags.Error())
	}
	return p
}

// apply applies p and keeps the resulting state for the next run.
func (h *harness) apply(p *plan.Plan, rec engine.StateRecorder) hcl.Diagnostics {
	h.t.Helper()
	st, diags := h.eng.Apply(context.Background(), h.cfg, p, engine.ApplyOpts{}, rec)
	if st != nil {
		h.state = st
	}
	return diags
}

func (h *harness) mustApply(p *plan.Plan) {
	h.t.Helper()
	if diags := h.apply(p, nil); diags.HasErrors() {
		h.t.Fatalf("apply failed: %s", diags.Error())
	}
}

// current decodes an instance's current object from the harness state.
func (h *harness) current(addr string) (cty.Value, *state.ObjectSrc) {
	h.t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		h.t.Fatalf("bad address %q", addr)
	}
	ri := h.state.ResourceInstance(a)
	if ri == nil || ri.Current == nil {
		return cty.NilVal, nil
	}
	ty := thingSchema.ImpliedType()
	if a.Resource.Resource.Mode == addrs.DataResourceMode {
		ty = infoSchema.ImpliedType()
	}
	v, err := ctyjson.Unmarshal(ri.Current.AttrsJSON, ty)
	if err != nil {
		h.t.Fatalf("decoding %s: %s", addr, err)
	}
	return v, ri.Current
}

func methods(calls []providertest.Call) []string {
	var out []string
	for _, c := range calls {
		switch c.Method {
		case "GetProviderSchema", "Close", "ConfigureProvider", "ValidateProviderConfig":
			continue
		}
		out = append(out, c.Method)
	}
	return out
}

func changeOf(t *testing.T, p *plan.Plan, addr string) *plan.ResourceInstanceChange {
	t.Helper()
	for _, c := range p.Changes {
		if c.Addr.String() == addr && c.DeposedKey == state.NotDeposed {
			return c
		}
	}
	t.Fatalf("plan has no change for %s", addr)
	return nil
}

// wantDiag fails unless diags has an error with the summary whose detail
// mentions every one of the fragments.
func wantDiag(t *testing.T, diags hcl.Diagnostics, summary string, fragments ...string) {
	t.Helper()
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Summary != summary {
			continue
		}
		ok := true
		for _, f := range fragments {
			if !strings.Contains(d.Detail, f) {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Errorf("want error %q mentioning %q; got:\n%s", summary, fragments, diagText(diags))
}

func diagText(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

const oneThing = `
resource "test_thing" "a" {
  name = "alpha"
}
`

func TestLifecycleCallsInOrder(t *testing.T) {
	p := newFake()
	h := newHarness(t, p, oneThing+`
resource "test_thing" "b" {
  name = test_thing.a.id
}
`)
	pl := h.mustPlan(engine.PlanOpts{})
	// b's name is unknown at plan time: the initial plan has unknowns.
	if b := changeOf(t, pl, "test_thing.b").After.GetAttr("name"); b.IsKnown() {
		t.Errorf("initial plan of b.name = %#v, want unknown", b)
	}
	planCalls := len(p.PlanCalls())
	h.mustApply(pl)

	// At apply each instance is planned again, with known configuration.
	final := p.PlanCalls()[planCalls:]
	if len(final) != 2 {
		t.Fatalf("apply made %d PlanResourceChange calls, want 2", len(final))
	}
	for _, req := range final {
		if !req.Config.IsWhollyKnown() {
			t.Errorf("final plan of a %s got unknown config %#v", req.TypeName, req.Config)
		}
	}
	b, _ := h.current("test_thing.b")
	a, _ := h.current("test_thing.a")
	if !b.GetAttr("name").RawEquals(a.GetAttr("id")) {
		t.Errorf("b.name = %#v, want a.id %#v", b.GetAttr("name"), a.GetAttr("id"))
	}

	// A second run: upgrade (skipped when the version matches), read, validate, plan; nothing to apply.
	before := len(p.Calls())
	pl = h.mustPlan(engine.PlanOpts{})
	got := methods(p.Calls()[before:])
	want := []string{"ReadResource", "ValidateResourceConfig", "PlanResourceChange", "ReadResource", "ValidateResourceConfig", "PlanResourceChange"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("second plan calls (-want +got):\n%s", diff)
	}
	for _, c := range pl.Changes {
		if c.Action != action.NoOp {
			t.Errorf("%s: %s on an unchanged second run", c.Addr, c.Action)
		}
	}
}

func TestUpgradeResourceStateForOlderVersion(t *testing.T) {
	p := newFake()
	p.Schema.ResourceTypes["test_thing"] = providers.Schema{Block: thingSchema, Version: 2}
	var upgrades []providers.UpgradeResourceStateRequest
	var mu sync.Mutex
	p.UpgradeResourceStateFn = func(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
		mu.Lock()
		upgrades = append(upgrades, req)
		mu.Unlock()
		// Version 1 called the attribute "title".
		var attrs map[string]any
		if err := json.Unmarshal(req.RawJSON, &attrs); err != nil {
			t.Errorf("raw state: %s", err)
		}
		attrs["name"] = attrs["title"]
		delete(attrs, "title")
		raw, _ := json.Marshal(attrs)
		up, err := ctyjson.Unmarshal(raw, thingSchema.ImpliedType())
		if err != nil {
			t.Errorf("upgrading: %s", err)
		}
		return providers.UpgradeResourceStateResponse{UpgradedState: up}
	}
	h := newHarness(t, p, oneThing)
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	if len(upgrades) != 0 {
		t.Fatalf("UpgradeResourceState called for a new object")
	}
	// Rewrite the stored object in the version 1 shape.
	_, obj := h.current("test_thing.a")
	if obj.SchemaVersion != 2 {
		t.Fatalf("new object stored with schema version %d, want 2", obj.SchemaVersion)
	}
	obj.AttrsJSON = []byte(strings.Replace(string(obj.AttrsJSON), `"name":`, `"title":`, 1))
	obj.SchemaVersion = 1

	pl := h.mustPlan(engine.PlanOpts{})
	if len(upgrades) != 1 || upgrades[0].Version != 1 {
		t.Fatalf("upgrade calls = %+v, want one from version 1", upgrades)
	}
	c := changeOf(t, pl, "test_thing.a")
	if c.Action != action.NoOp {
		t.Errorf("upgraded object planned %s, want no-op", c.Action)
	}
	if got := p.ReadCalls()[0].PriorState.GetAttr("name"); !got.RawEquals(cty.StringVal("alpha")) {
		t.Errorf("ReadResource got prior name %#v, want the upgraded value", got)
	}
}

func TestDataSourceReadAtPlanAndDeferred(t *testing.T) {
	p := newFake()
	h := newHarness(t, p, oneThing+`
data "test_info" "now" {
  name = "static"
}
data "test_info" "later" {
  name = test_thing.a.id
}
`)
	pl := h.mustPlan(engine.PlanOpts{})
	reads := p.ReadDataCalls()
	if len(reads) != 1 || reads[0].Config.GetAttr("name").AsString() != "static" {
		t.Fatalf("plan read %d data sources (%+v), want only the static one", len(reads), reads)
	}
	if c := changeOf(t, pl, "data.test_info.later"); c.Action != action.Read {
		t.Errorf("data.test_info.later planned %s, want read at apply", c.Action)
	}
	h.mustApply(pl)
	if n := len(p.ReadDataCalls()); n != 2 {
		t.Errorf("%d data reads after apply, want 2", n)
	}
	v, _ := h.current("data.test_info.later")
	if v == cty.NilVal || v.GetAttr("value").IsNull() {
		t.Errorf("deferred data source not in state: %#v", v)
	}
}

func TestValidateResourceConfigErrorStopsPlan(t *testing.T) {
	p := newFake()
	p.ValidateResourceConfigFn = func(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
		var d providers.Diagnostics
		return providers.ValidateResourceConfigResponse{Diagnostics: d.Errorf(cty.GetAttrPath("name"), "Name not allowed", "alpha is reserved.")}
	}
	h := newHarness(t, p, oneThing)
	_, diags := h.plan(engine.PlanOpts{})
	wantDiag(t, diags, "Name not allowed", "alpha is reserved")
	if n := len(p.PlanCalls()); n != 0 {
		t.Errorf("PlanResourceChange called %d times after a validation error", n)
	}
}

// TestProposedNewReachesProvider checks the proposed new state the engine
// builds for each nesting shape on an update.
func TestProposedNewReachesProvider(t *testing.T) {
	p := newFake()
	h := newHarness(t, p, `
resource "test_thing" "a" {
  name  = "alpha"
  disks = [{ size = 1 }]
  single { v = "s" }
  rule { port = 80 }
  member { name = "m" }
  label "x" { text = "t" }
}
`)
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	applied, _ := h.current("test_thing.a")

	h.setConfig(`
resource "test_thing" "a" {
  name  = "beta"
  disks = [{ size = 1 }, { size = 2 }]
  single { v = "s" }
  rule { port = 80 }
  rule { port = 81 }
  member { name = "m" }
  member { name = "n" }
  label "x" { text = "t" }
  label "y" { text = "u" }
}
`)
	n := len(p.PlanCalls())
	h.mustPlan(engine.PlanOpts{})
	req := p.PlanCalls()[n]
	pn := req.ProposedNewState
	get := func(v cty.Value, path cty.Path) cty.Value {
		t.Helper()
		got, err := path.Apply(v)
		if err != nil {
			t.Fatalf("%#v: %s", path, err)
		}
		return got
	}
	tests := []struct {
		name string
		path cty.Path
		want cty.Value
	}{
		{"computed kept from prior", cty.GetAttrPath("id"), get(applied, cty.GetAttrPath("id"))},
		{"optional+computed null config keeps prior", cty.GetAttrPath("size"), get(applied, cty.GetAttrPath("size"))},
		{"config value taken", cty.GetAttrPath("name"), cty.StringVal("beta")},
		{"group block computed kept", cty.GetAttrPath("group").GetAttr("v"), get(applied, cty.GetAttrPath("group").GetAttr("v"))},
		{"single block from config", cty.GetAttrPath("single").GetAttr("v"), cty.StringVal("s")},
		{"list block element 0 keeps computed", cty.GetAttrPath("rule").IndexInt(0).GetAttr("uid"), get(applied, cty.GetAttrPath("rule").IndexInt(0).GetAttr("uid"))},
		{"new list block element has null computed", cty.GetAttrPath("rule").IndexInt(1).GetAttr("uid"), cty.NullVal(cty.String)},
		{"map block existing key keeps computed", cty.GetAttrPath("label").IndexString("x").GetAttr("uid"), get(applied, cty.GetAttrPath("label").IndexString("x").GetAttr("uid"))},
		{"map block new key has null computed", cty.GetAttrPath("label").IndexString("y").GetAttr("uid"), cty.NullVal(cty.String)},
		{"nested-type list keeps computed", cty.GetAttrPath("disks").IndexInt(0).GetAttr("uid"), get(applied, cty.GetAttrPath("disks").IndexInt(0).GetAttr("uid"))},
		{"nested-type new element null computed", cty.GetAttrPath("disks").IndexInt(1).GetAttr("uid"), cty.NullVal(cty.String)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := get(pn, tt.path); !got.RawEquals(tt.want) {
				t.Errorf("proposed %#v = %#v, want %#v", tt.path, got, tt.want)
			}
		})
	}
	t.Run("set block matched element keeps computed", func(t *testing.T) {
		var uids []string
		for it := pn.GetAttr("member").ElementIterator(); it.Next(); {
			_, m := it.Element()
			if m.GetAttr("name").AsString() == "m" && !m.GetAttr("uid").IsNull() {
				uids = append(uids, m.GetAttr("uid").AsString())
			}
		}
		var old string
		for it := applied.GetAttr("member").ElementIterator(); it.Next(); {
			_, m := it.Element()
			old = m.GetAttr("uid").AsString()
		}
		if diff := cmp.Diff([]string{old}, uids); diff != "" {
			t.Errorf("set element uid (-want +got):\n%s", diff)
		}
	})
}
