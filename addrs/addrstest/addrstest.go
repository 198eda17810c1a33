package addrstest

import (
	"testing"

	"github.com/tenetplan/tenet/addrs"
)

// Instance parses an absolute resource instance address, failing the
// test when s is not one.
func Instance(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return a
}
