package statetest

import (
	"fmt"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// Flat is what `count = n` of terraform_data leaves after an apply.
func Flat(n int) *state.State {
	s := state.NewState()
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Absolute(nil)
	for i := range n {
		s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(i)), &state.ObjectSrc{
			Status:    state.ObjectReady,
			AttrsJSON: []byte(fmt.Sprintf(`{"id":"aaaaaaaa-0000-0000-0000-%012d","input":{"value":"x-%d","type":"string"},"output":{"value":"x-%d","type":"string"},"triggers_replace":null}`, i, i, i)),
		}, prov)
	}
	return s
}
