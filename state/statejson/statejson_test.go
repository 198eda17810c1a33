package statejson

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
	"github.com/tenetplan/tenet/state/statetest"
)

// builtinTypes are the object types of the built-in terraform provider's
// resource types, as its schemas imply them.
func builtinTypes(p addrs.Provider, mode addrs.ResourceMode, typ string) (cty.Type, bool) {
	switch {
	case mode == addrs.ManagedResourceMode && typ == "terraform_data":
		return cty.Object(map[string]cty.Type{
			"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType,
		}), true
	case mode == addrs.DataResourceMode && typ == "terraform_remote_state":
		return cty.Object(map[string]cty.Type{
			"backend": cty.String, "config": cty.DynamicPseudoType, "defaults": cty.DynamicPseudoType,
			"outputs": cty.DynamicPseudoType, "workspace": cty.String,
		}), true
	}
	return cty.NilType, false
}

func jsonValue(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON %s: %s", b, err)
	}
	return v
}

// TestScenarioDeposedPriorState renders the state a scenario installs and
// compares with the prior_state OpenTofu printed for it.
func TestScenarioDeposedPriorState(t *testing.T) {
	// The state the scenario installs, and the prior_state OpenTofu 1.10.6
	// printed for it (kept next to this test: the repo's scenario copy
	// holds the normalised plan only).
	src, err := os.ReadFile("../../testdata/conformance/scenarios/134-deposed-objects-in-state/steps/01/state.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := os.ReadFile("testdata/134-deposed-prior-state.json")
	if err != nil {
		t.Fatal(err)
	}
	p := struct{ PriorState json.RawMessage }{plan}
	f, err := statefile.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(f.State, "1.10.6", builtinTypes)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(jsonValue(t, p.PriorState), jsonValue(t, got)); d != "" {
		t.Errorf("(-opentofu +tenet):\n%s", d)
	}
	var compact bytes.Buffer
	json.Compact(&compact, p.PriorState)
	if string(got) != compact.String() {
		t.Errorf("not byte-identical to OpenTofu's compact form:\n%s\n%s", compact.String(), got)
	}
}

func TestResourceEntries(t *testing.T) {
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	inst := func(s string) addrs.AbsResourceInstance {
		a, diags := addrs.ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return a
	}
	s := state.NewState()
	s.SetResourceInstanceCurrent(inst("terraform_data.b"), &state.ObjectSrc{
		AttrsJSON:      []byte(`{"id":"b","input":{"value":{"list":["x","v1"],"lit":"k","pw":"p"},"type":["object",{"list":["tuple",["string","string"]],"lit":"string","pw":"string"}]},"output":null,"triggers_replace":null}`),
		SensitivePaths: []cty.Path{cty.GetAttrPath("input").GetAttr("pw"), cty.GetAttrPath("input").GetAttr("list").IndexInt(1)},
		Dependencies:   []addrs.ConfigResource{inst("terraform_data.z").Config(), inst("module.m.terraform_data.a").Config()},
		Status:         state.ObjectTainted,
	}, prov)
	s.SetResourceInstanceCurrent(inst(`module.m["k"].module.n[0].terraform_data.c[3]`), &state.ObjectSrc{AttrsJSON: []byte(`{"id":"c"}`)}, prov)
	s.SetResourceInstanceCurrent(inst(`module.m["k"].other_thing.d["x"]`), &state.ObjectSrc{
		AttrsJSON:      []byte(`{"id":"d","tags":{"a":"1","b":"2"},"list":[1,2],"empty":[],"null":null}`),
		SensitivePaths: []cty.Path{cty.GetAttrPath("tags").Index(cty.StringVal("b"))},
	}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("other")})
	s.SetOutputValue("secret", cty.StringVal("s"), true)

	got, err := Values(s, builtinTypes)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"outputs":{"secret":{"sensitive":true,"value":"s","type":"string"}},"root_module":{` +
		`"resources":[{"address":"terraform_data.b","mode":"managed","type":"terraform_data","name":"b","provider_name":"terraform.io/builtin/terraform","schema_version":0,` +
		`"values":{"id":"b","input":{"list":["x","v1"],"lit":"k","pw":"p"},"output":null,"triggers_replace":null},` +
		`"sensitive_values":{"input":{"list":[false,true],"pw":true}},"depends_on":["module.m.terraform_data.a","terraform_data.z"],"tainted":true}],` +
		`"child_modules":[{"resources":[{"address":"module.m[\"k\"].other_thing.d[\"x\"]","mode":"managed","type":"other_thing","name":"d","index":"x","provider_name":"registry.opentofu.org/hashicorp/other","schema_version":0,` +
		`"values":{"id":"d","tags":{"a":"1","b":"2"},"list":[1,2],"empty":[],"null":null},"sensitive_values":{"empty":[],"list":[false,false],"tags":{"b":true}}}],` +
		`"address":"module.m[\"k\"]","child_modules":[{"resources":[{"address":"module.m[\"k\"].module.n[0].terraform_data.c[3]","mode":"managed","type":"terraform_data","name":"c","index":3,"provider_name":"terraform.io/builtin/terraform","schema_version":0,` +
		`"values":{"id":"c","input":null,"output":null,"triggers_replace":null},"sensitive_values":{}}],"address":"module.m[\"k\"].module.n[0]"}]}]}}`
	if d := cmp.Diff(jsonValue(t, []byte(want)), jsonValue(t, got)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestNilState(t *testing.T) {
	got, err := Marshal(nil, "1.10.6", nil)
	if err != nil || string(got) != `{"format_version":"1.0"}` {
		t.Errorf("got %s, %v", got, err)
	}
}

// BenchmarkMarshal100k times the hand-written writer on 100,000
// terraform_data instances with their schemas; BenchmarkMarshalStd100k is
// its reference.
func BenchmarkMarshal100k(b *testing.B) {
	s := statetest.Flat(100_000)
	for b.Loop() {
		if _, err := Marshal(s, "1.10.0", builtinTypes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalStd100k times encoding/json writing the same document
// given as decoded JSON (maps, slices, float64s), so without decoding the
// attributes first: the least a reflecting writer would cost.
func BenchmarkMarshalStd100k(b *testing.B) {
	out, err := Marshal(statetest.Flat(100_000), "1.10.0", builtinTypes)
	if err != nil {
		b.Fatal(err)
	}
	doc := jsonValue(b, out)
	for b.Loop() {
		if _, err := json.Marshal(doc); err != nil {
			b.Fatal(err)
		}
	}
}
