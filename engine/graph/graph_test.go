package graph

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
)

func TestCheckNodeDisplayName(t *testing.T) {
	cases := []struct{ key, want string }{
		{ModKey(addrs.RootModule, "check", "health"), "check.health"},
		{ModKey(addrs.RootModule.Child("net"), "check", "health"), "module.net.check.health"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, displayName(tc.key)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCycleMemberName(t *testing.T) {
	child := addrs.RootModule.Child("m")
	cases := []struct{ key, want string }{
		{ModKey(addrs.RootModule, "local", "a"), "local.a (expand)"},
		{ModKey(child, "local", "a"), "module.m.local.a (expand)"},
		{ModKey(addrs.RootModule, "output", "o"), "output.o (expand)"},
		{ModKey(child, "output", "out"), "module.m.output.out (expand)"},
		{ModKey(addrs.RootModule, "var", "v"), "var.v"},
		{ModKey(child, "var", "in"), "module.m.var.in (expand, input), module.m.var.in (expand, reference)"},
		{ModKey(addrs.RootModule, "module", "m"), "module.m (expand)"},
		{"resource:terraform_data.x", "terraform_data.x"},
	}
	for _, tc := range cases {
		if diff := cmp.Diff(tc.want, cycleMemberName(tc.key)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.key, diff)
		}
	}
}
