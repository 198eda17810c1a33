package jsonui

import (
	"fmt"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/cli/views"
)

// ApplyOutputs reports the root outputs after an apply: sensitive flag,
// type and (unless sensitive) value.
func (v *JSONView) ApplyOutputs(outputs map[string]views.OutputValue) error {
	msgs := make(map[string]OutputMessage, len(outputs))
	for name, o := range outputs {
		val, _ := o.Value.UnmarkDeep()
		m := OutputMessage{Sensitive: o.Sensitive, Deprecated: o.Deprecated}
		typ, err := ctyjson.MarshalType(val.Type())
		if err != nil {
			return fmt.Errorf("output %s: %w", name, err)
		}
		m.Type = typ
		if !o.Sensitive && val.IsWhollyKnown() {
			js, err := ctyjson.Marshal(val, val.Type())
			if err != nil {
				return fmt.Errorf("output %s: %w", name, err)
			}
			m.Value = js
		}
		msgs[name] = m
	}
	v.Outputs(msgs)
	return nil
}
