package state

import "github.com/tenetplan/tenet/addrs"

// Change is one recorded edit of a State, as state/local's journal keeps
// it: either an object now stored at Addr/Deposed (Object nil = removed),
// or, when Output is set, a root output value (OutputValue nil = removed).
type Change struct {
	Addr     addrs.AbsResourceInstance
	Deposed  DeposedKey
	Object   *ObjectSrc
	Provider addrs.AbsProviderConfig

	Output      string
	OutputValue *OutputValue
}

// Apply replays a change onto a plain State: the journal's recovery path.
func (s *State) Apply(c Change) {
	if c.Output != "" {
		if c.OutputValue == nil {
			s.RemoveOutputValue(c.Output)
		} else {
			v := *c.OutputValue
			if s.Outputs == nil {
				s.Outputs = map[string]*OutputValue{}
			}
			s.Outputs[c.Output] = &v
		}
		return
	}
	if c.Deposed == NotDeposed {
		s.SetResourceInstanceCurrent(c.Addr, c.Object, c.Provider)
	} else {
		s.SetResourceInstanceDeposed(c.Addr, c.Deposed, c.Object, c.Provider)
	}
}
