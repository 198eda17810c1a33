package state

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/addrs/addrstest"
)

var testProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

var inst = addrstest.Instance

func obj(id string) *ObjectSrc {
	return &ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: ObjectReady}
}

func listing(s *State) []string {
	var out []string
	for _, r := range s.AllResourceInstances() {
		e := r.Addr.String()
		if r.Deposed != NotDeposed {
			e += " deposed " + string(r.Deposed)
		}
		out = append(out, e+" "+string(r.Object.AttrsJSON))
	}
	return out
}

func TestAllResourceInstancesOrder(t *testing.T) {
	s := NewState()
	for _, a := range []string{
		`module.n[2].b.x`, `module.n[10].b.x`, `module.n["k"].b.x`, `b.x["b"]`, `b.x[10]`, `b.x[2]`, `b.y`, `a.z`, `data.z.y`,
	} {
		s.SetResourceInstanceCurrent(inst(t, a), obj(a), testProvider)
	}
	s.SetResourceInstanceDeposed(inst(t, "b.y"), "00000002", obj("d2"), testProvider)
	s.SetResourceInstanceDeposed(inst(t, "b.y"), "00000001", obj("d1"), testProvider)
	want := []string{
		`data.z.y {"id":"data.z.y"}`,
		`a.z {"id":"a.z"}`,
		`b.x[2] {"id":"b.x[2]"}`,
		`b.x[10] {"id":"b.x[10]"}`,
		`b.x["b"] {"id":"b.x["b"]"}`,
		`b.y {"id":"b.y"}`,
		`b.y deposed 00000001 {"id":"d1"}`,
		`b.y deposed 00000002 {"id":"d2"}`,
		`module.n["k"].b.x {"id":"module.n["k"].b.x"}`,
		`module.n[10].b.x {"id":"module.n[10].b.x"}`,
		`module.n[2].b.x {"id":"module.n[2].b.x"}`,
	}
	if d := cmp.Diff(want, listing(s)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestRemovingLastObjectPrunes(t *testing.T) {
	a := inst(t, "module.m.b.x[0]")
	tests := map[string]func(s *State){
		"current set to nil": func(s *State) { s.SetResourceInstanceCurrent(a, nil, testProvider) },
		"forget all":         func(s *State) { s.ForgetResourceInstanceAll(a) },
		"remove resource":    func(s *State) { s.RemoveResource(a.ContainingResource()) },
	}
	for name, remove := range tests {
		t.Run(name, func(t *testing.T) {
			s := NewState()
			s.SetResourceInstanceCurrent(a, obj("1"), testProvider)
			if name == "forget all" {
				s.SetResourceInstanceDeposed(a, "0000000a", obj("d"), testProvider)
			}
			remove(s)
			if s.Module(a.Module) != nil {
				t.Errorf("empty module %s kept", a.Module)
			}
			if !s.Empty() {
				t.Errorf("state not empty: %v", listing(s))
			}
			if s.Module(addrs.RootModuleInstance) == nil {
				t.Errorf("root module removed")
			}
		})
	}
	t.Run("deposed remains", func(t *testing.T) {
		s := NewState()
		s.SetResourceInstanceCurrent(a, obj("1"), testProvider)
		s.SetResourceInstanceDeposed(a, "0000000a", obj("d"), testProvider)
		s.SetResourceInstanceCurrent(a, nil, testProvider)
		if is := s.ResourceInstance(a); is == nil || is.Deposed["0000000a"] == nil {
			t.Errorf("deposed object lost with the current one")
		}
	})
}

func TestDeposeAndRestore(t *testing.T) {
	s := NewState()
	a := inst(t, "b.x")
	if k := s.DeposeResourceInstanceObject(a); k != NotDeposed {
		t.Errorf("deposing nothing gave key %q", k)
	}
	s.SetResourceInstanceCurrent(a, obj("old"), testProvider)
	k := s.DeposeResourceInstanceObject(a)
	if len(k) != 8 {
		t.Fatalf("deposed key %q is not 8 hex digits", k)
	}
	if s.ResourceInstanceObject(a, NotDeposed) != nil || string(s.ResourceInstanceObject(a, k).AttrsJSON) != `{"id":"old"}` {
		t.Fatalf("depose did not move the object: %v", listing(s))
	}
	// A second depose gets a distinct key.
	s.SetResourceInstanceCurrent(a, obj("mid"), testProvider)
	k2 := s.DeposeResourceInstanceObject(a)
	if k2 == k || len(s.ResourceInstance(a).Deposed) != 2 {
		t.Fatalf("second depose: %q vs %q", k2, k)
	}
	if !s.MaybeRestoreResourceInstanceDeposed(a, k) {
		t.Fatalf("restore refused with no current object")
	}
	if string(s.ResourceInstanceObject(a, NotDeposed).AttrsJSON) != `{"id":"old"}` {
		t.Errorf("restore did not make the object current")
	}
	if s.MaybeRestoreResourceInstanceDeposed(a, k2) {
		t.Errorf("restore replaced an existing current object")
	}
}

func TestEqualIgnoresEmptyModulesAndComparesContent(t *testing.T) {
	a := inst(t, "b.x")
	base := NewState()
	base.SetResourceInstanceCurrent(a, obj("1"), testProvider)
	base.SetOutputValue("o", cty.StringVal("v"), false)

	withEmpty := base.DeepCopy()
	withEmpty.EnsureModule(addrs.RootModuleInstance.Child("m", nil))
	if !base.Equal(withEmpty) {
		t.Errorf("an empty module made states unequal")
	}
	changes := map[string]func(s *State){
		"attributes": func(s *State) { s.SetResourceInstanceCurrent(a, obj("2"), testProvider) },
		"tainted": func(s *State) {
			o := obj("1")
			o.Status = ObjectTainted
			s.SetResourceInstanceCurrent(a, o, testProvider)
		},
		"output":        func(s *State) { s.SetOutputValue("o", cty.StringVal("w"), false) },
		"sensitivity":   func(s *State) { s.SetOutputValue("o", cty.StringVal("v"), true) },
		"deposed":       func(s *State) { s.SetResourceInstanceDeposed(a, "00000001", obj("1"), testProvider) },
		"check results": func(s *State) { s.CheckResults = []byte(`[]`) },
		"provider": func(s *State) {
			s.SetResourceProvider(a.ContainingResource(), addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			c := base.DeepCopy()
			change(c)
			if base.Equal(c) || c.Equal(base) {
				t.Errorf("change not detected")
			}
		})
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	a := inst(t, "b.x")
	s := NewState()
	s.SetResourceInstanceCurrent(a, obj("1"), testProvider)
	c := s.DeepCopy()
	c.ResourceInstanceObject(a, NotDeposed).AttrsJSON[2] = 'X'
	c.SetResourceInstanceCurrent(inst(t, "b.y"), obj("2"), testProvider)
	if string(s.ResourceInstanceObject(a, NotDeposed).AttrsJSON) != `{"id":"1"}` || s.ResourceInstance(inst(t, "b.y")) != nil {
		t.Errorf("copy shares memory with the original: %v", listing(s))
	}
}

func TestMoveResourceInstance(t *testing.T) {
	s := NewState()
	src, dst := inst(t, "b.x[0]"), inst(t, "module.m.b.y")
	s.SetResourceInstanceCurrent(src, obj("1"), testProvider)
	if err := s.MoveResourceInstance(src, dst); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{`module.m.b.y {"id":"1"}`}, listing(s)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	s.SetResourceInstanceCurrent(src, obj("2"), testProvider)
	if err := s.MoveResourceInstance(src, dst); err == nil {
		t.Errorf("moving onto an existing instance did not fail")
	}
}

func TestApplyReplaysChanges(t *testing.T) {
	a, b := inst(t, "b.x[7]"), inst(t, "b.x[8]")
	want := NewState()
	want.SetResourceInstanceCurrent(a, obj("1"), testProvider)
	want.SetResourceInstanceCurrent(b, obj("2"), testProvider)
	key := want.DeposeResourceInstanceObject(a)
	want.SetResourceInstanceCurrent(a, obj("3"), testProvider)
	want.ForgetResourceInstanceAll(b)
	want.SetOutputValue("kept", cty.StringVal("v"), true)
	want.SetOutputValue("gone", cty.StringVal("w"), false)
	want.RemoveOutputValue("gone")

	replayed := NewState()
	for _, c := range []Change{
		{Addr: a, Object: obj("1"), Provider: testProvider},
		{Addr: b, Object: obj("2"), Provider: testProvider},
		{Addr: a, Deposed: key, Object: obj("1"), Provider: testProvider},
		{Addr: a, Object: obj("3"), Provider: testProvider},
		{Addr: b, Provider: testProvider},
		{Output: "kept", OutputValue: want.OutputValue("kept")},
		{Output: "gone", OutputValue: &OutputValue{Value: cty.StringVal("w")}},
		{Output: "gone"},
	} {
		replayed.Apply(c)
	}
	if !replayed.Equal(want) {
		t.Errorf("replay differs:\n%v\n%v", listing(replayed), listing(want))
	}
	if replayed.ResourceInstanceObject(a, key) == nil {
		t.Errorf("deposed object missing after replay")
	}
}

func BenchmarkSetAndList100k(b *testing.B) {
	addrsList := make([]addrs.AbsResourceInstance, 100_000)
	for i := range addrsList {
		addrsList[i] = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "n"}.Absolute(nil).Instance(addrs.IntKey(i))
	}
	o := obj("x")
	for b.Loop() {
		s := NewState()
		for _, a := range addrsList {
			s.SetResourceInstanceCurrent(a, o, testProvider)
		}
		if len(s.AllResourceInstances()) != len(addrsList) {
			b.Fatal("lost instances")
		}
	}
}
