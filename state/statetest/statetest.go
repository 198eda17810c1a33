package statetest

import (
	"fmt"
	"testing"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/addrs/addrstest"
	"github.com/tenetplan/tenet/state"
)

// Provider is the built-in terraform provider's configuration, which
// every state built here uses.
var Provider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

// Object is a ready terraform_data object whose only attribute is id.
func Object(id string) *state.ObjectSrc {
	return &state.ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: state.ObjectReady}
}

// With is a state holding one terraform_data instance per id, named
// terraform_data.<id> and holding Object(id).
func With(t testing.TB, ids ...string) *state.State {
	t.Helper()
	s := state.NewState()
	for _, id := range ids {
		s.SetResourceInstanceCurrent(addrstest.Instance(t, "terraform_data."+id), Object(id), Provider)
	}
	return s
}

// Flat is what `count = n` of terraform_data leaves after an apply.
func Flat(n int) *state.State {
	s := state.NewState()
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Absolute(nil)
	for i := range n {
		s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(i)), &state.ObjectSrc{
			Status:    state.ObjectReady,
			AttrsJSON: []byte(fmt.Sprintf(`{"id":"aaaaaaaa-0000-0000-0000-%012d","input":{"value":"x-%d","type":"string"},"output":{"value":"x-%d","type":"string"},"triggers_replace":null}`, i, i, i)),
		}, Provider)
	}
	return s
}
