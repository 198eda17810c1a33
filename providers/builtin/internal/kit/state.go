package kit

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/providers"
)

// DecodeState reads a stored object (the "attributes" JSON of a state
// instance) into a value of the schema's type. Attributes the schema no
// longer has are dropped and missing ones become null, so objects written
// by other versions of a provider still load.
func DecodeState(schema *providers.Block, raw json.RawMessage) (cty.Value, error) {
	ty := schema.ImpliedType()
	if len(raw) == 0 || string(raw) == "null" {
		return cty.NullVal(ty), nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return cty.NilVal, fmt.Errorf("not a JSON object: %w", err)
	}
	changed := false
	for name := range fields {
		if !ty.HasAttribute(name) {
			delete(fields, name)
			changed = true
		}
	}
	if changed {
		var err error
		if raw, err = json.Marshal(fields); err != nil {
			return cty.NilVal, err
		}
	}
	return ctyjson.Unmarshal(raw, ty)
}
