// Package plantest builds plans, states and JSON plan documents for the
// tests and benchmarks of the plan packages (engine/plan, planjson,
// planfile) and of their readers, so each test package need not keep its
// own copy. Nothing outside tests imports it.
package plantest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

var (
	TerraformProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

	NullDyn = cty.NullVal(cty.DynamicPseudoType)
	UnkStr  = cty.UnknownVal(cty.String)
)

// TD builds a terraform_data object.
func TD(id, input, output, triggers cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": id, "input": input, "output": output, "triggers_replace": triggers,
	})
}

// TDType is terraform_data's implied type.
var TDType = cty.Object(map[string]cty.Type{
	"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType,
})

// Known reads a wholly known value from JSON, with the JSON's implied type.
func Known(t testing.TB, src string) cty.Value {
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

func InstAddr(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatalf("address %q: %s", s, diags.Error())
	}
	return a
}

// Change builds a managed or data change with the built-in provider.
func Change(t testing.TB, addr string, action action.Action, before, after cty.Value) *plan.ResourceInstanceChange {
	t.Helper()
	a := InstAddr(t, addr)
	return &plan.ResourceInstanceChange{Addr: a, PrevRunAddr: a, Provider: TerraformProvider, Action: action, Before: before, After: after}
}

func AttrPath(names ...string) cty.Path {
	var p cty.Path
	for _, n := range names {
		p = p.GetAttr(n)
	}
	return p
}

// StateFromView builds a state from a recorded prior_state (the state view
// of a JSON plan): the inputs to Marshal that produced it.
func StateFromView(t testing.TB, raw json.RawMessage) *state.State {
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
			addr := InstAddr(t, r.Address)
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
			PutObject(s, addr, addrs.AbsProviderConfig{Provider: pr}, state.DeposedKey(r.DeposedKey), obj)
		}
		for _, c := range m.ChildModules {
			addModule(c)
		}
	}
	addModule(view.Values.RootModule)
	return s
}

func PutObject(s *state.State, addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, deposed state.DeposedKey, obj *state.ObjectSrc) {
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

func parseInstance(s string) (addrs.AbsResourceInstance, error) {
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		return a, diags
	}
	return a, nil
}

// BigPlan has n creates and n/10 module updates of terraform_data: the
// load of the JSON plan and plan file benchmarks.
func BigPlan(n int) *plan.Plan {
	p := &plan.Plan{Timestamp: time.Unix(0, 0), TerraformVersion: "0.1.0"}
	for i := range n {
		addr := fmt.Sprintf("terraform_data.r[%d]", i)
		if i%10 == 0 {
			addr = fmt.Sprintf("module.m[%d].terraform_data.r", i)
		}
		a, _ := parseInstance(addr)
		p.Changes = append(p.Changes, &plan.ResourceInstanceChange{
			Addr: a, PrevRunAddr: a, Provider: TerraformProvider, Action: action.Create,
			Before: cty.NullVal(TDType),
			After: TD(UnkStr, cty.ObjectVal(map[string]cty.Value{
				"name": cty.StringVal(addr), "n": cty.NumberIntVal(int64(i)), "l": cty.ListVal([]cty.Value{cty.StringVal("a"), UnkStr}),
			}), cty.DynamicVal, NullDyn),
		})
	}
	return p
}

// CreateTD is the planned create of a terraform_data instance: its id and
// output stay unknown until apply, and it has no replacement triggers.
func CreateTD(t testing.TB, addr string, input cty.Value) *plan.ResourceInstanceChange {
	t.Helper()
	return Change(t, addr, action.Create, cty.NullVal(TDType), TD(UnkStr, input, cty.DynamicVal, NullDyn))
}

// OutputAttrs names the output attribute of each resource as relevant to
// a plan, as a plan records a reference to it.
func OutputAttrs(resources ...string) []plan.ResourceAttr {
	attrs := make([]plan.ResourceAttr, len(resources))
	for i, r := range resources {
		attrs[i] = plan.ResourceAttr{Resource: r, Attr: AttrPath("output")}
	}
	return attrs
}
