package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
)

func TestCheckNodeDisplayName(t *testing.T) {
	cases := []struct{ key, want string }{
		{modKey(addrs.RootModule, "check", "health"), "check.health"},
		{modKey(addrs.RootModule.Child("net"), "check", "health"), "module.net.check.health"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, displayName(tc.key)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
