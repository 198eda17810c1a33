package plugin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
	"github.com/tenetplan/tenet/providers/plugin/internal/testprovider"
)

var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

func errorSummaries(ds providers.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			out = append(out, d.Summary)
		}
	}
	return out
}

func noErrors(t *testing.T, what string, ds providers.Diagnostics) {
	t.Helper()
	if ds.HasErrors() {
		t.Fatalf("%s: unexpected errors: %+v", what, ds)
	}
}

// TestSchema checks every schema element survives the trip: each block
// nesting mode with min/max items, nested attributes (protocol 6),
// sensitive, deprecated and write-only flags, functions, capabilities.
func TestSchema(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(map[int]string{5: "v5", 6: "v6"}[protocol], func(t *testing.T) {
			c := start(t, protocol, "", protocol == 6)
			if got := c.ProtocolVersion(); got != protocol {
				t.Fatalf("ProtocolVersion() = %d, want %d", got, protocol)
			}
			s := c.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema", s.Diagnostics)

			thing := s.ResourceTypes["test_thing"]
			if thing.Version != 1 {
				t.Errorf("test_thing version = %d, want 1", thing.Version)
			}
			b := thing.Block
			wantModes := map[string]providers.NestingMode{
				"blk_single": providers.NestingSingle, "blk_group": providers.NestingGroup,
				"blk_list": providers.NestingList, "blk_set": providers.NestingSet, "blk_map": providers.NestingMap,
				"blk_dyn_list": providers.NestingList, "blk_dyn_map": providers.NestingMap,
			}
			gotModes := map[string]providers.NestingMode{}
			for name, nb := range b.BlockTypes {
				gotModes[name] = nb.Nesting
			}
			if d := cmp.Diff(wantModes, gotModes); d != "" {
				t.Errorf("block nesting modes (-want +got):\n%s", d)
			}
			if got := b.BlockTypes["blk_list"].MaxItems; got != 3 {
				t.Errorf("blk_list max items = %d, want 3", got)
			}
			name := b.Attributes["name"]
			if !name.Required || name.Description != "the name" || name.Type != cty.String {
				t.Errorf("name attribute = %+v", name)
			}
			if !b.Attributes["secret"].Sensitive || !b.Attributes["old"].Deprecated || !b.Attributes["id"].Computed {
				t.Errorf("flags lost: secret %+v, old %+v, id %+v", b.Attributes["secret"], b.Attributes["old"], b.Attributes["id"])
			}
			if got := b.Attributes["tags"].Type; !got.Equals(cty.Map(cty.String)) {
				t.Errorf("tags type = %#v", got)
			}
			if got := b.Attributes["dyn"].Type; got != cty.DynamicPseudoType {
				t.Errorf("dyn type = %#v", got)
			}
			// Blocks whose contents are dynamic are dynamic as a whole.
			ity := b.ImpliedType()
			for _, n := range []string{"blk_dyn_list", "blk_dyn_map"} {
				if got := ity.AttributeType(n); got != cty.DynamicPseudoType {
					t.Errorf("implied type of %s = %#v, want dynamic", n, got)
				}
			}
			if protocol == 6 {
				if !b.Attributes["wo"].WriteOnly {
					t.Errorf("wo is not write-only")
				}
				for n, mode := range map[string]providers.NestingMode{"obj_single": providers.NestingSingle, "obj_list": providers.NestingList, "obj_set": providers.NestingSet, "obj_map": providers.NestingMap} {
					nt := b.Attributes[n].NestedType
					if nt == nil || nt.Nesting != mode || nt.Attributes["a"].Type != cty.String {
						t.Errorf("%s nested type = %+v", n, nt)
					}
				}
			}
			if d := cmp.Diff(testprovider.Functions, s.Functions, cmpOpts); d != "" {
				t.Errorf("functions (-want +got):\n%s", d)
			}
			if d := cmp.Diff(testprovider.Functions, c.GetFunctions(context.Background()).Functions, cmpOpts); d != "" {
				t.Errorf("GetFunctions (-want +got):\n%s", d)
			}
			if !s.PlanDestroy || !s.MoveResourceState || !s.GetProviderSchemaOptional {
				t.Errorf("capabilities lost: %+v", s)
			}
			if _, ok := s.DataSources["test_echo"]; !ok {
				t.Errorf("data source test_echo missing")
			}
		})
	}
}

// TestLifecycle walks one object through every resource RPC for both
// protocols: validate, configure, plan, apply, read, update with
// replacement, destroy, upgrade, import, move, data source read.
func TestLifecycle(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(map[int]string{5: "v5", 6: "v6"}[protocol], func(t *testing.T) {
			ctx := context.Background()
			c := start(t, protocol, "", false)
			s := c.GetProviderSchema(ctx)
			noErrors(t, "schema", s.Diagnostics)
			thing := s.ResourceTypes["test_thing"].Block
			ty := thing.ImpliedType()

			// Provider configuration.
			bad := c.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: cty.ObjectVal(map[string]cty.Value{"prefix": cty.StringVal("bad")})})
			if d := cmp.Diff([]string{"Bad prefix"}, errorSummaries(bad.Diagnostics)); d != "" {
				t.Errorf("bad prefix diagnostics (-want +got):\n%s", d)
			} else if !bad.Diagnostics[0].Attribute.Equals(cty.GetAttrPath("prefix")) {
				t.Errorf("bad prefix path = %#v", bad.Diagnostics[0].Attribute)
			}
			vp := c.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: cty.NullVal(s.Provider.Block.ImpliedType())})
			noErrors(t, "ValidateProviderConfig", vp.Diagnostics)
			var wantPrepared cty.Value
			if protocol == 5 {
				wantPrepared = cty.ObjectVal(map[string]cty.Value{"prefix": cty.StringVal("p-")})
			}
			if d := cmp.Diff(wantPrepared, vp.PreparedConfig, cmpOpts); d != "" {
				t.Errorf("prepared config (-want +got):\n%s", d)
			}
			noErrors(t, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
				Config: cty.ObjectVal(map[string]cty.Value{"prefix": cty.StringVal("x-")})}).Diagnostics)

			// Resource validation, with diagnostics pointing into the
			// object.
			cfg := with(thing.EmptyValue(), map[string]cty.Value{
				"name":      cty.StringVal("one"),
				"size":      cty.NumberIntVal(2),
				"secret":    cty.StringVal("hush").Mark("sensitive"),
				"dyn":       cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}),
				"blk_list":  cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("l")})}),
				"blk_map":   cty.MapVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("m")})}),
				"blk_group": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("g")}),
				"blk_dyn_list": cty.TupleVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"d": cty.NumberIntVal(1)}),
					cty.ObjectVal(map[string]cty.Value{"d": cty.StringVal("two")}),
				}),
				"blk_dyn_map": cty.ObjectVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"d": cty.ListValEmpty(cty.Bool)})}),
			})
			if protocol == 6 {
				cfg = with(cfg, map[string]cty.Value{
					"wo":         cty.StringVal("only-once"),
					"obj_single": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s")}),
					"obj_set":    cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})}),
				})
			}
			vr := c.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: with(cfg, map[string]cty.Value{"name": cty.StringVal("invalid")})})
			wantDiags := providers.Diagnostics{
				{Severity: hcl.DiagWarning, Summary: "Odd name", Detail: "really?", Attribute: cty.GetAttrPath("blk_list").IndexInt(0).GetAttr("x")},
				{Severity: hcl.DiagError, Summary: "Invalid name", Detail: "the name must not be \"invalid\"", Attribute: cty.GetAttrPath("tags").IndexString("k")},
			}
			if d := cmp.Diff(wantDiags, vr.Diagnostics, cmpOpts); d != "" {
				t.Errorf("ValidateResourceConfig diagnostics (-want +got):\n%s", d)
			}
			noErrors(t, "ValidateResourceConfig", c.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: cfg}).Diagnostics)

			// Create. Marks do not cross the wire: the planned value comes
			// back unmarked.
			unmarked, _ := cfg.UnmarkDeep()
			plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: "test_thing", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg, PriorPrivate: []byte("p0"),
			})
			noErrors(t, "plan create", plan.Diagnostics)
			wantPlanned := with(unmarked, map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull()})
			if protocol == 6 {
				wantPlanned = with(wantPlanned, map[string]cty.Value{"wo": cty.NullVal(cty.String)})
			}
			if d := cmp.Diff(wantPlanned, plan.PlannedState, cmpOpts); d != "" {
				t.Errorf("planned state (-want +got):\n%s", d)
			}
			if got := string(plan.PlannedPrivate); got != "planned:p0" {
				t.Errorf("planned private = %q", got)
			}
			if plan.LegacyTypeSystem != (protocol == 5) {
				t.Errorf("LegacyTypeSystem = %v for protocol %d", plan.LegacyTypeSystem, protocol)
			}
			// The planned set element with an unknown attribute goes to
			// apply as planned; apply needs known values there.
			plannedForApply, applyCfg := plan.PlannedState, cfg
			if protocol == 6 {
				noSet := map[string]cty.Value{"obj_set": cty.NullVal(ty.AttributeType("obj_set"))}
				plannedForApply, applyCfg = with(plannedForApply, noSet), with(cfg, noSet)
			}
			applied := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: "test_thing", PriorState: cty.NullVal(ty), PlannedState: plannedForApply, Config: applyCfg, PlannedPrivate: plan.PlannedPrivate,
			})
			noErrors(t, "apply", applied.Diagnostics)
			if got := applied.NewState.GetAttr("id"); !got.RawEquals(cty.StringVal("x-one")) {
				t.Errorf("applied id = %#v, want x-one", got)
			}
			if protocol == 6 {
				if got := applied.NewState.GetAttr("tags"); !got.RawEquals(cty.MapVal(map[string]cty.Value{"wo_seen": cty.StringVal("only-once")})) {
					t.Errorf("write-only value did not reach apply: tags = %#v", got)
				}
			}
			if got := string(applied.Private); got != "applied:planned:p0" {
				t.Errorf("applied private = %q", got)
			}

			// Refresh, then an update that forces replacement.
			read := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "test_thing", PriorState: applied.NewState, Private: applied.Private})
			noErrors(t, "read", read.Diagnostics)
			if d := cmp.Diff(applied.NewState, read.NewState, cmpOpts); d != "" {
				t.Errorf("read state (-want +got):\n%s", d)
			}
			if got := string(read.Private); got != "read:applied:planned:p0" {
				t.Errorf("read private = %q", got)
			}
			gone := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "test_thing", PriorState: with(applied.NewState, map[string]cty.Value{"name": cty.StringVal("gone")})})
			if !gone.NewState.IsNull() {
				t.Errorf("read of a vanished object = %#v, want null", gone.NewState)
			}
			bigger := with(applyCfg, map[string]cty.Value{"size": cty.NumberIntVal(3)})
			update := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: "test_thing", PriorState: applied.NewState, ProposedNewState: bigger, Config: bigger,
			})
			noErrors(t, "plan update", update.Diagnostics)
			if d := cmp.Diff([]cty.Path{cty.GetAttrPath("size")}, update.RequiresReplace, cmpOpts); d != "" {
				t.Errorf("requires replace (-want +got):\n%s", d)
			}

			// Destroy: plan and apply with null proposed and planned states.
			destroy := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: "test_thing", PriorState: applied.NewState, ProposedNewState: cty.NullVal(ty), Config: cty.NullVal(ty),
			})
			noErrors(t, "plan destroy", destroy.Diagnostics)
			if !destroy.PlannedState.IsNull() {
				t.Errorf("destroy planned %#v", destroy.PlannedState)
			}
			gone2 := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: "test_thing", PriorState: applied.NewState, PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty),
			})
			noErrors(t, "apply destroy", gone2.Diagnostics)
			if !gone2.NewState.IsNull() || !gone2.NewState.Type().Equals(ty) {
				t.Errorf("destroyed state = %#v", gone2.NewState)
			}
		})
	}
}

// TestStateRPCs covers upgrade (JSON and flatmap), import, move and the
// data source read.
func TestStateRPCs(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(map[int]string{5: "v5", 6: "v6"}[protocol], func(t *testing.T) {
			ctx := context.Background()
			c := start(t, protocol, "", false)
			thingTy := c.GetProviderSchema(ctx).ResourceTypes["test_thing"].Block.ImpliedType()
			nullThing := func(attrs map[string]cty.Value) cty.Value {
				vals := map[string]cty.Value{}
				for n, at := range thingTy.AttributeTypes() {
					vals[n] = cty.NullVal(at)
				}
				for n, v := range attrs {
					vals[n] = v
				}
				return cty.ObjectVal(vals)
			}
			tests := []struct {
				name string
				req  providers.UpgradeResourceStateRequest
				want cty.Value
			}{
				{"json v0", providers.UpgradeResourceStateRequest{TypeName: "test_thing", Version: 0, RawJSON: []byte(`{"id":"i1","title":"old"}`)},
					nullThing(map[string]cty.Value{"id": cty.StringVal("i1"), "name": cty.StringVal("old")})},
				{"json v1", providers.UpgradeResourceStateRequest{TypeName: "test_thing", Version: 1, RawJSON: []byte(`{"id":"i2","name":"new","size":4}`)},
					nullThing(map[string]cty.Value{"id": cty.StringVal("i2"), "name": cty.StringVal("new"), "size": cty.NumberIntVal(4)})},
				{"flatmap", providers.UpgradeResourceStateRequest{TypeName: "test_thing", Version: 0, RawFlatmap: map[string]string{"id": "i3", "title": "flat"}},
					nullThing(map[string]cty.Value{"id": cty.StringVal("i3"), "name": cty.StringVal("flat")})},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got := c.UpgradeResourceState(ctx, tt.req)
					noErrors(t, "upgrade", got.Diagnostics)
					if d := cmp.Diff(tt.want, got.UpgradedState, cmpOpts); d != "" {
						t.Errorf("upgraded state (-want +got):\n%s", d)
					}
				})
			}

			imp := c.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "test_other", ID: "abc"})
			noErrors(t, "import", imp.Diagnostics)
			wantImp := []providers.ImportedResource{{TypeName: "test_other", Private: []byte("imported"),
				State: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("abc"), "value": cty.StringVal("imported")})}}
			if d := cmp.Diff(wantImp, imp.ImportedResources, cmpOpts); d != "" {
				t.Errorf("imported (-want +got):\n%s", d)
			}

			mv := c.MoveResourceState(ctx, providers.MoveResourceStateRequest{
				SourceProviderAddress: "registry.opentofu.org/tenet/old", SourceTypeName: "test_old", SourceSchemaVersion: 2,
				SourceStateJSON: []byte(`{"id":"m1","old_value":"v"}`), SourcePrivate: []byte("pp"), TargetTypeName: "test_other",
			})
			noErrors(t, "move", mv.Diagnostics)
			if d := cmp.Diff(cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("m1"), "value": cty.StringVal("v")}), mv.TargetState, cmpOpts); d != "" {
				t.Errorf("moved state (-want +got):\n%s", d)
			}
			if got := string(mv.TargetPrivate); got != "moved-from:registry.opentofu.org/tenet/old:pp" {
				t.Errorf("moved private = %q", got)
			}
			badMove := c.MoveResourceState(ctx, providers.MoveResourceStateRequest{SourceTypeName: "test_nope", TargetTypeName: "test_other", SourceStateJSON: []byte(`{}`)})
			if d := cmp.Diff([]string{"Unsupported move"}, errorSummaries(badMove.Diagnostics)); d != "" {
				t.Errorf("bad move (-want +got):\n%s", d)
			}

			echoTy := c.GetProviderSchema(ctx).DataSources["test_echo"].Block.ImpliedType()
			noErrors(t, "validate data", c.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: "test_echo", Config: cty.NullVal(echoTy)}).Diagnostics)
			rd := c.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "test_echo",
				Config: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("hi"), "output": cty.NullVal(cty.String)})})
			noErrors(t, "read data", rd.Diagnostics)
			if got := rd.State.GetAttr("output"); !got.RawEquals(cty.StringVal("echo:hi")) {
				t.Errorf("data source output = %#v", got)
			}

			unknownType := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "test_missing"})
			if d := cmp.Diff([]string{"Unsupported resource type"}, errorSummaries(unknownType.Diagnostics)); d != "" {
				t.Errorf("unknown type (-want +got):\n%s", d)
			}
			unknownData := c.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "test_missing"})
			if d := cmp.Diff([]string{"Unsupported data source"}, errorSummaries(unknownData.Diagnostics)); d != "" {
				t.Errorf("unknown data source (-want +got):\n%s", d)
			}
			if r := c.StopProvider(ctx); r.Error != "" {
				t.Errorf("StopProvider: %s", r.Error)
			}
		})
	}
}

// TestFunctions calls provider-defined functions: fixed, variadic and
// dynamic parameters, and a function error blaming an argument.
func TestFunctions(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(map[int]string{5: "v5", 6: "v6"}[protocol], func(t *testing.T) {
			c := start(t, protocol, "", false)
			zero := 0
			tests := []struct {
				name    string
				fn      string
				args    []cty.Value
				want    cty.Value
				wantErr *providers.FunctionError
			}{
				{"fixed", "upper", []cty.Value{cty.StringVal("abc")}, cty.StringVal("ABC"), nil},
				{"marked argument", "upper", []cty.Value{cty.StringVal("abc").Mark("sensitive")}, cty.StringVal("ABC"), nil},
				{"variadic", "sum", []cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2), cty.NumberIntVal(4)}, cty.NumberIntVal(7), nil},
				{"variadic none", "sum", nil, cty.NumberIntVal(0), nil},
				{"dynamic", "echo", []cty.Value{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)})},
					cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}), nil},
				{"dynamic unknown", "echo", []cty.Value{cty.UnknownVal(cty.String)}, cty.UnknownVal(cty.String), nil},
				{"function error", "fail", []cty.Value{cty.StringVal("x")}, cty.NilVal,
					&providers.FunctionError{Text: "fail always fails: x", Argument: &zero}},
				{"too many arguments", "upper", []cty.Value{cty.StringVal("a"), cty.StringVal("b")}, cty.NilVal,
					&providers.FunctionError{Text: `function "upper" takes 1 arguments, got 2`}},
				{"no such function", "nope", nil, cty.NilVal,
					&providers.FunctionError{Text: `provider tenet/test has no function "nope"`}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got := c.CallFunction(context.Background(), providers.CallFunctionRequest{Name: tt.fn, Arguments: tt.args})
					if d := cmp.Diff(tt.wantErr, got.Err, cmpOpts); d != "" {
						t.Fatalf("error (-want +got):\n%s", d)
					}
					if d := cmp.Diff(tt.want, got.Result, cmpOpts); d != "" {
						t.Errorf("result (-want +got):\n%s", d)
					}
				})
			}
		})
	}
}

// TestBoundFunction calls a plugin's function the way the engine will,
// as a cty function made by providers.Function.Bind.
func TestBoundFunction(t *testing.T) {
	c := start(t, 5, "", false)
	ctx := context.Background()
	fns := c.GetProviderSchema(ctx).Functions
	got, err := fns["upper"].Bind(ctx, c, "upper").Call([]cty.Value{cty.StringVal("abc").Mark("sensitive")})
	if err != nil {
		t.Fatal(err)
	}
	if want := cty.StringVal("ABC").Mark("sensitive"); !got.RawEquals(want) {
		t.Errorf("upper = %#v, want %#v", got, want)
	}
	_, err = fns["fail"].Bind(ctx, c, "fail").Call([]cty.Value{cty.StringVal("x")})
	if err == nil || !strings.Contains(err.Error(), "fail always fails: x") {
		t.Errorf("fail: error = %v", err)
	}
}

func TestCloseTwice(t *testing.T) {
	c := start(t, 6, "", false)
	ctx := context.Background()
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	s := c.GetProviderSchema(ctx)
	if !s.Diagnostics.HasErrors() || !strings.Contains(s.Diagnostics[0].Detail, "GetProviderSchema") {
		t.Errorf("a call after Close = %+v, want an error naming the RPC", s.Diagnostics)
	}
}

// TestCachedSchema: a schema from an earlier process is used when the
// provider says fetching it is optional, and ignored when it does not.
func TestCachedSchema(t *testing.T) {
	ctx := context.Background()
	first := start(t, 6, "", false)
	s := first.GetProviderSchema(ctx)
	noErrors(t, "schema", s.Diagnostics)
	// A marker only the cache has, so the test can tell where the answer
	// came from.
	marked := s
	marked.DataSources = map[string]providers.Schema{"from_cache": {Block: &providers.Block{}}}
	tests := []struct {
		name      string
		optional  bool
		wantCache bool
	}{
		{"optional", true, true},
		{"required", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cached := marked
			cached.GetProviderSchemaOptional = tt.optional
			cfg := config(t, 6, "", false)
			cfg.CachedSchema = &cached
			c, err := plugin.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			_, got := c.GetProviderSchema(ctx).DataSources["from_cache"]
			if got != tt.wantCache {
				t.Errorf("answered from the cache: %v, want %v", got, tt.wantCache)
			}
		})
	}
}
