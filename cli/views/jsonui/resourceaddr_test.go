package jsonui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewResourceAddr(t *testing.T) {
	tests := map[string]ResourceAddr{
		"a_b.c": {Addr: "a_b.c", Resource: "a_b.c", ImpliedProvider: "a", ResourceType: "a_b", ResourceName: "c"},
		`module.x["p.q"].module.y[2].data.time_static.t["k.z"]`: {Addr: `module.x["p.q"].module.y[2].data.time_static.t["k.z"]`,
			Module: `module.x["p.q"].module.y[2]`, Resource: `data.time_static.t["k.z"]`, ImpliedProvider: "time",
			ResourceType: "time_static", ResourceName: "t", ResourceKey: "k.z"},
		"not an address": {Addr: "not an address"},
		"a.b[x]":         {Addr: "a.b[x]"},
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if diff := cmp.Diff(want, NewResourceAddr(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzNewResourceAddr(f *testing.F) {
	for _, s := range []string{"a.b", `module.m[0].a_b.c["k"]`, "data.x.y", `a.b["\"]"]`, "module.", "[[", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ra := NewResourceAddr(s)
		if ra.Addr != s {
			t.Fatalf("Addr = %q", ra.Addr)
		}
		if ra.ResourceType != "" && ra.Module != "" && s != ra.Module+"."+ra.Resource {
			t.Fatalf("module %q + resource %q != %q", ra.Module, ra.Resource, s)
		}
	})
}
