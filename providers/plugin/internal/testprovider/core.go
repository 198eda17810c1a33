package testprovider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/providers"
)

// core is the provider's logic in cty terms; server5.go and server6.go
// put it on the wire. It implements just enough behaviour for the client
// tests to tell each field went both ways.
type core struct {
	protocol  int
	misbehave string

	mu     sync.Mutex
	prefix string
}

// Functions are the provider's functions, as it declares them: the tests
// compare what the client decodes with this.
var Functions = map[string]providers.Function{
	"upper": {Parameters: []providers.FunctionParameter{{Name: "s", Type: cty.String}}, ReturnType: cty.String, Summary: "upper-cases"},
	"sum":   {VariadicParameter: &providers.FunctionParameter{Name: "n", Type: cty.Number}, ReturnType: cty.Number},
	"echo": {Parameters: []providers.FunctionParameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNullValue: true, AllowUnknownValues: true}},
		ReturnType: cty.DynamicPseudoType},
	"fail": {Parameters: []providers.FunctionParameter{{Name: "s", Type: cty.String}}, ReturnType: cty.String},
	// getenv lets tests see the environment the plugin runs in.
	"getenv": {Parameters: []providers.FunctionParameter{{Name: "name", Type: cty.String}}, ReturnType: cty.String},
}

// schema is the provider's schema. Nested-type attributes and write-only
// attributes exist only in protocol 6.
func (c *core) schema() providers.GetProviderSchemaResponse {
	x := func() *providers.Block {
		return &providers.Block{Attributes: map[string]*providers.Attribute{"x": {Type: cty.String, Optional: true}}}
	}
	dyn := func() *providers.Block {
		return &providers.Block{Attributes: map[string]*providers.Attribute{"d": {Type: cty.DynamicPseudoType, Optional: true}}}
	}
	thing := &providers.Block{
		Attributes: map[string]*providers.Attribute{
			"id":     {Type: cty.String, Computed: true},
			"name":   {Type: cty.String, Required: true, Description: "the name"},
			"size":   {Type: cty.Number, Optional: true},
			"tags":   {Type: cty.Map(cty.String), Optional: true},
			"dyn":    {Type: cty.DynamicPseudoType, Optional: true},
			"secret": {Type: cty.String, Optional: true, Sensitive: true},
			"old":    {Type: cty.String, Optional: true, Deprecated: true},
		},
		BlockTypes: map[string]*providers.NestedBlock{
			"blk_single":   {Block: *x(), Nesting: providers.NestingSingle},
			"blk_group":    {Block: *x(), Nesting: providers.NestingGroup},
			"blk_list":     {Block: *x(), Nesting: providers.NestingList, MinItems: 0, MaxItems: 3},
			"blk_set":      {Block: *x(), Nesting: providers.NestingSet},
			"blk_map":      {Block: *x(), Nesting: providers.NestingMap},
			"blk_dyn_list": {Block: *dyn(), Nesting: providers.NestingList},
			"blk_dyn_map":  {Block: *dyn(), Nesting: providers.NestingMap},
		},
	}
	if c.protocol == 6 {
		a := func() map[string]*providers.Attribute {
			return map[string]*providers.Attribute{"a": {Type: cty.String, Optional: true}}
		}
		thing.Attributes["wo"] = &providers.Attribute{Type: cty.String, Optional: true, WriteOnly: true}
		for name, n := range map[string]providers.NestingMode{
			"obj_single": providers.NestingSingle, "obj_list": providers.NestingList,
			"obj_set": providers.NestingSet, "obj_map": providers.NestingMap,
		} {
			thing.Attributes[name] = &providers.Attribute{NestedType: &providers.Object{Attributes: a(), Nesting: n}, Optional: true}
		}
	}
	other := &providers.Block{Attributes: map[string]*providers.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"value": {Type: cty.String, Optional: true},
	}}
	echo := &providers.Block{Attributes: map[string]*providers.Attribute{
		"input":  {Type: cty.String, Optional: true},
		"output": {Type: cty.String, Computed: true},
	}}
	return providers.GetProviderSchemaResponse{
		Provider:          providers.Schema{Block: &providers.Block{Attributes: map[string]*providers.Attribute{"prefix": {Type: cty.String, Optional: true}}}},
		ResourceTypes:     map[string]providers.Schema{"test_thing": {Version: 1, Block: thing}, "test_other": {Block: other}},
		DataSources:       map[string]providers.Schema{"test_echo": {Block: echo}},
		Functions:         Functions,
		PlanDestroy:       true,
		MoveResourceState: true,
	}
}

func (c *core) validateProvider(cfg cty.Value) (cty.Value, providers.Diagnostics) {
	var diags providers.Diagnostics
	p := cty.NullVal(cty.String)
	if !cfg.IsNull() {
		p = cfg.GetAttr("prefix")
	}
	if p.IsKnown() && !p.IsNull() && p.AsString() == "bad" {
		diags = diags.Errorf(cty.GetAttrPath("prefix"), "Bad prefix", "the prefix must not be \"bad\"")
	}
	if p.IsNull() {
		cfg = cty.ObjectVal(map[string]cty.Value{"prefix": cty.StringVal("p-")})
	}
	return cfg, diags
}

func (c *core) configure(cfg cty.Value) providers.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := cfg.GetAttr("prefix"); !p.IsNull() {
		c.prefix = p.AsString()
	}
	return nil
}

func (c *core) validateResource(typeName string, cfg cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	if typeName == "test_thing" {
		if n := cfg.GetAttr("name"); n.IsKnown() && !n.IsNull() && n.AsString() == "invalid" {
			diags = append(diags, providers.Diagnostic{Severity: hcl.DiagWarning, Summary: "Odd name", Detail: "really?",
				Attribute: cty.GetAttrPath("blk_list").IndexInt(0).GetAttr("x")})
			diags = diags.Errorf(cty.GetAttrPath("tags").IndexString("k"), "Invalid name", "the name must not be \"invalid\"")
		}
	}
	return diags
}

func (c *core) plan(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if c.misbehave == "panic" {
		panic("test provider: planning went wrong")
	}
	if c.misbehave == "hang" {
		<-ctx.Done()
		select {} // ignore the cancellation too
	}
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	vals := req.ProposedNewState.AsValueMap()
	var replace []cty.Path
	if req.PriorState.IsNull() {
		vals["id"] = cty.UnknownVal(cty.String).RefineNotNull()
	} else {
		vals["id"] = req.PriorState.GetAttr("id")
		if req.PriorState.Type().HasAttribute("size") && !req.PriorState.GetAttr("size").RawEquals(req.ProposedNewState.GetAttr("size")) {
			replace = append(replace, cty.GetAttrPath("size"))
			vals["id"] = cty.UnknownVal(cty.String)
		}
	}
	if _, ok := vals["wo"]; ok {
		vals["wo"] = cty.NullVal(cty.String)
	}
	return providers.PlanResourceChangeResponse{
		PlannedState:     cty.ObjectVal(vals),
		RequiresReplace:  replace,
		PlannedPrivate:   append([]byte("planned:"), req.PriorPrivate...),
		LegacyTypeSystem: c.protocol == 5,
	}
}

func (c *core) apply(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	vals := req.PlannedState.AsValueMap()
	if !vals["id"].IsKnown() {
		c.mu.Lock()
		vals["id"] = cty.StringVal(c.prefix + req.PlannedState.GetAttr("name").AsString())
		c.mu.Unlock()
	}
	if _, ok := vals["wo"]; ok {
		// Write-only values reach apply through the config only; the
		// test sees them come back in tags.
		if wo := req.Config.GetAttr("wo"); !wo.IsNull() {
			vals["tags"] = cty.MapVal(map[string]cty.Value{"wo_seen": wo})
		}
	}
	return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(vals), Private: append([]byte("applied:"), req.PlannedPrivate...)}
}

func (c *core) read(req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if req.TypeName == "test_thing" && req.PriorState.GetAttr("name").AsString() == "gone" {
		return providers.ReadResourceResponse{NewState: cty.NullVal(req.PriorState.Type())}
	}
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: append([]byte("read:"), req.Private...)}
}

// objectFrom builds an object of type ty from raw JSON attributes,
// leaving out ones null. It serves upgrade and move, whose inputs are in
// older or foreign shapes.
func objectFrom(ty cty.Type, raw map[string]json.RawMessage) (cty.Value, error) {
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		b, ok := raw[name]
		if !ok {
			vals[name] = cty.NullVal(at)
			continue
		}
		v, err := ctyjson.Unmarshal(b, at)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", name, err)
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), nil
}

func (c *core) upgrade(req providers.UpgradeResourceStateRequest, ty cty.Type) providers.UpgradeResourceStateResponse {
	var diags providers.Diagnostics
	raw := map[string]json.RawMessage{}
	if req.RawJSON != nil {
		if err := json.Unmarshal(req.RawJSON, &raw); err != nil {
			return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil, "Bad state", err.Error())}
		}
	} else {
		for k, v := range req.RawFlatmap {
			b, _ := json.Marshal(v)
			raw[k] = b
		}
	}
	if req.Version == 0 { // version 0 called the name "title"
		if t, ok := raw["title"]; ok {
			raw["name"] = t
			delete(raw, "title")
		}
	}
	v, err := objectFrom(ty, raw)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil, "Bad state", err.Error())}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

func (c *core) move(req providers.MoveResourceStateRequest, ty cty.Type) providers.MoveResourceStateResponse {
	var diags providers.Diagnostics
	if req.SourceTypeName != "test_old" || req.TargetTypeName != "test_other" {
		return providers.MoveResourceStateResponse{Diagnostics: diags.Errorf(nil, "Unsupported move",
			fmt.Sprintf("cannot move %s to %s", req.SourceTypeName, req.TargetTypeName))}
	}
	raw := map[string]json.RawMessage{}
	if err := json.Unmarshal(req.SourceStateJSON, &raw); err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: diags.Errorf(nil, "Bad state", err.Error())}
	}
	raw["value"] = raw["old_value"]
	v, err := objectFrom(ty, raw)
	if err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: diags.Errorf(nil, "Bad state", err.Error())}
	}
	return providers.MoveResourceStateResponse{TargetState: v, TargetPrivate: append([]byte("moved-from:"+req.SourceProviderAddress+":"), req.SourcePrivate...)}
}

func (c *core) importState(req providers.ImportResourceStateRequest, ty cty.Type) providers.ImportResourceStateResponse {
	raw := map[string]json.RawMessage{}
	raw["id"], _ = json.Marshal(req.ID)
	raw["value"], _ = json.Marshal("imported")
	v, err := objectFrom(ty, raw)
	if err != nil {
		var diags providers.Diagnostics
		return providers.ImportResourceStateResponse{Diagnostics: diags.Errorf(nil, "Bad import", err.Error())}
	}
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{TypeName: req.TypeName, State: v, Private: []byte("imported")}}}
}

func (c *core) readData(cfg cty.Value) cty.Value {
	in := cfg.GetAttr("input")
	out := cty.StringVal("echo:")
	if !in.IsNull() {
		out = cty.StringVal("echo:" + in.AsString())
	}
	return cty.ObjectVal(map[string]cty.Value{"input": in, "output": out})
}

func (c *core) call(name string, args []cty.Value) (cty.Value, *providers.FunctionError) {
	switch name {
	case "upper":
		return cty.StringVal(strings.ToUpper(args[0].AsString())), nil
	case "sum":
		total := new(big.Float)
		for _, a := range args {
			total.Add(total, a.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	case "echo":
		return args[0], nil
	case "getenv":
		return cty.StringVal(os.Getenv(args[0].AsString())), nil
	case "fail":
		zero := 0
		return cty.NilVal, &providers.FunctionError{Text: "fail always fails: " + args[0].AsString(), Argument: &zero}
	}
	return cty.NilVal, &providers.FunctionError{Text: "no function " + name}
}
