package planjson

import "github.com/tenetplan/tenet/state"

// stateEmpty reports whether s has no resource instances and no outputs;
// the JSON plan then leaves prior_state out.
func stateEmpty(s *state.State) bool {
	if s == nil {
		return true
	}
	if len(s.Outputs) > 0 {
		return false
	}
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			if len(r.Instances) > 0 {
				return false
			}
		}
	}
	return true
}
