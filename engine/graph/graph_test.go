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
