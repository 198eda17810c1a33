package providertest

import (
	"context"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
)

var thingSchema = &providers.Block{
	Attributes: map[string]*providers.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"name":  {Type: cty.String, Required: true},
		"size":  {Type: cty.Number, Optional: true, Computed: true},
		"flags": {Type: cty.List(cty.Bool), Computed: true},
	},
	BlockTypes: map[string]*providers.NestedBlock{
		"rule": {Nesting: providers.NestingList, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"port": {Type: cty.Number, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
	},
}

func thingConfig(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":    cty.NullVal(cty.String),
		"name":  cty.StringVal(name),
		"size":  cty.NullVal(cty.Number),
		"flags": cty.NullVal(cty.List(cty.Bool)),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"port": cty.NumberIntVal(80), "uid": cty.NullVal(cty.String),
		})}),
	})
}

func plan(p providers.Interface, prior, config cty.Value) providers.PlanResourceChangeResponse {
	return p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
		TypeName: "thing", PriorState: prior, Config: config,
		ProposedNewState: objchange.ProposedNew(thingSchema, prior, config),
	})
}

func TestDefaultsFollowTheProtocol(t *testing.T) {
	p := New(map[string]*providers.Block{"thing": thingSchema}, nil)
	null := cty.NullVal(thingSchema.ImpliedType())
	config := thingConfig("a")
	resp := plan(p, null, config)
	if errs := objchange.AssertPlanValid(thingSchema, null, config, resp.PlannedState); len(errs) > 0 {
		t.Fatalf("default plan invalid: %v", errs)
	}
	for _, path := range []cty.Path{cty.GetAttrPath("id"), cty.GetAttrPath("size"), cty.GetAttrPath("rule").IndexInt(0).GetAttr("uid")} {
		v, _ := path.Apply(resp.PlannedState)
		if v.IsKnown() {
			t.Errorf("computed %#v should be unknown on create", path)
		}
	}
	applied := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName: "thing", PriorState: null, PlannedState: resp.PlannedState, Config: config,
	}).NewState
	if !applied.IsWhollyKnown() {
		t.Fatalf("default apply left unknowns: %#v", applied)
	}
	if errs := objchange.AssertObjectCompatible(thingSchema, resp.PlannedState, applied); len(errs) > 0 {
		t.Fatalf("default apply incompatible: %v", errs)
	}
	again := plan(p, applied, config)
	if !again.PlannedState.RawEquals(applied) {
		t.Errorf("second plan should be a no-op, got %#v", again.PlannedState)
	}
	if n := len(p.PlanCalls()); n != 2 {
		t.Errorf("recorded %d plan calls, want 2", n)
	}
	if n := len(p.ApplyCalls()); n != 1 {
		t.Errorf("recorded %d apply calls, want 1", n)
	}
}

func TestHooksCanMisbehave(t *testing.T) {
	p := New(map[string]*providers.Block{"thing": thingSchema}, nil)
	p.PlanResourceChangeFn = func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		resp := p.DefaultPlan(req)
		m := resp.PlannedState.AsValueMap()
		m["name"] = cty.StringVal("changed")
		resp.PlannedState = cty.ObjectVal(m)
		return resp
	}
	null := cty.NullVal(thingSchema.ImpliedType())
	config := thingConfig("a")
	resp := plan(p, null, config)
	if errs := objchange.AssertPlanValid(thingSchema, null, config, resp.PlannedState); len(errs) != 1 {
		t.Errorf("a plan changing a configured value should be caught once, got %v", errs)
	}
}

func TestDataSourceDefault(t *testing.T) {
	ds := &providers.Block{Attributes: map[string]*providers.Attribute{
		"q":   {Type: cty.String, Required: true},
		"out": {Type: cty.String, Computed: true},
	}}
	p := New(nil, map[string]*providers.Block{"lookup": ds})
	resp := p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "lookup", Config: cty.ObjectVal(map[string]cty.Value{
		"q": cty.StringVal("x"), "out": cty.NullVal(cty.String),
	})})
	if !resp.State.IsWhollyKnown() || resp.State.GetAttr("out").IsNull() || resp.State.GetAttr("q").AsString() != "x" {
		t.Errorf("unexpected data %#v", resp.State)
	}
}

func TestConcurrentCallsAreRecorded(t *testing.T) {
	p := New(map[string]*providers.Block{"thing": thingSchema}, nil)
	null := cty.NullVal(thingSchema.ImpliedType())
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]bool{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := plan(p, null, thingConfig("a"))
			applied := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{TypeName: "thing", PriorState: null, PlannedState: resp.PlannedState})
			mu.Lock()
			ids[applied.NewState.GetAttr("id").AsString()] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(p.Calls()) != 100 {
		t.Errorf("recorded %d calls, want 100", len(p.Calls()))
	}
	if len(ids) != 50 {
		t.Errorf("made-up ids should be unique, got %d distinct of 50", len(ids))
	}
}
