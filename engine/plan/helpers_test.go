package plan

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

var (
	terraformProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

	nullDyn = cty.NullVal(cty.DynamicPseudoType)
	unkStr  = cty.UnknownVal(cty.String)
)

// td builds a terraform_data object.
func td(id, input, output, triggers cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": id, "input": input, "output": output, "triggers_replace": triggers,
	})
}

// tdType is terraform_data's implied type.
var tdType = cty.Object(map[string]cty.Type{
	"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType,
})

// known reads a wholly known value from JSON, with the JSON's implied type.
func known(t testing.TB, src string) cty.Value {
	t.Helper()
	ty, err := ctyjson.ImpliedType([]byte(src))
	if err != nil {
		t.Fatalf("implied type of %s: %s", src, err)
	}
	v, err := ctyjson.Unmarshal([]byte(src), ty)
	if err != nil {
		t.Fatalf("unmarshal %s: %s", src, err)
	}
	return v
}

func instAddr(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatalf("address %q: %s", s, diags.Error())
	}
	return a
}

// change builds a managed or data change with the built-in provider.
func change(t testing.TB, addr string, action Action, before, after cty.Value) *ResourceInstanceChange {
	t.Helper()
	a := instAddr(t, addr)
	return &ResourceInstanceChange{Addr: a, PrevRunAddr: a, Provider: terraformProvider, Action: action, Before: before, After: after}
}

func attrPath(names ...string) cty.Path {
	var p cty.Path
	for _, n := range names {
		p = p.GetAttr(n)
	}
	return p
}

// stateFromView builds a state from a recorded prior_state (the state view
// of a JSON plan): the inputs to MarshalJSON that produced it.
func stateFromView(t testing.TB, raw json.RawMessage) *state.State {
	t.Helper()
	var view struct {
		Values struct {
			Outputs map[string]struct {
				Sensitive bool            `json:"sensitive"`
				Value     json.RawMessage `json:"value"`
				Type      json.RawMessage `json:"type"`
			} `json:"outputs"`
			RootModule json.RawMessage `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatal(err)
	}
	s := &state.State{Modules: map[string]*state.Module{}, Outputs: map[string]*state.OutputValue{}}
	for name, o := range view.Values.Outputs {
		ty, err := ctyjson.UnmarshalType(o.Type)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ctyjson.Unmarshal(o.Value, ty)
		if err != nil {
			t.Fatal(err)
		}
		s.Outputs[name] = &state.OutputValue{Value: v, Sensitive: o.Sensitive}
	}
	var addModule func(raw json.RawMessage)
	addModule = func(raw json.RawMessage) {
		var m struct {
			Resources []struct {
				Address       string          `json:"address"`
				ProviderName  string          `json:"provider_name"`
				SchemaVersion uint64          `json:"schema_version"`
				Values        json.RawMessage `json:"values"`
				DependsOn     []string        `json:"depends_on"`
				Tainted       bool            `json:"tainted"`
				DeposedKey    string          `json:"deposed_key"`
			} `json:"resources"`
			ChildModules []json.RawMessage `json:"child_modules"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Resources {
			addr := instAddr(t, r.Address)
			pr, err := addrs.ParseProviderSource(r.ProviderName)
			if err != nil {
				t.Fatal(err)
			}
			obj := &state.ObjectSrc{SchemaVersion: r.SchemaVersion, AttrsJSON: r.Values, Status: state.ObjectReady}
			if r.Tainted {
				obj.Status = state.ObjectTainted
			}
			for _, d := range r.DependsOn {
				ra, diags := addrs.ParseAbsResourceStr(d)
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				obj.Dependencies = append(obj.Dependencies, ra.Config())
			}
			putObject(s, addr, addrs.AbsProviderConfig{Provider: pr}, state.DeposedKey(r.DeposedKey), obj)
		}
		for _, c := range m.ChildModules {
			addModule(c)
		}
	}
	addModule(view.Values.RootModule)
	return s
}

func putObject(s *state.State, addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, deposed state.DeposedKey, obj *state.ObjectSrc) {
	mk := addr.Module.String()
	m := s.Modules[mk]
	if m == nil {
		m = &state.Module{Addr: addr.Module, Resources: map[string]*state.Resource{}}
		s.Modules[mk] = m
	}
	rk := addr.Resource.Resource.String()
	r := m.Resources[rk]
	if r == nil {
		r = &state.Resource{Addr: addr.ContainingResource(), ProviderConfig: provider, Instances: map[addrs.InstanceKey]*state.ResourceInstance{}}
		m.Resources[rk] = r
	}
	inst := r.Instances[addr.Resource.Key]
	if inst == nil {
		inst = &state.ResourceInstance{}
		r.Instances[addr.Resource.Key] = inst
	}
	if deposed == state.NotDeposed {
		inst.Current = obj
		return
	}
	if inst.Deposed == nil {
		inst.Deposed = map[state.DeposedKey]*state.ObjectSrc{}
	}
	inst.Deposed[deposed] = obj
}

func parseInstanceForBench(s string) (addrs.AbsResourceInstance, error) {
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		return a, diags
	}
	return a, nil
}
