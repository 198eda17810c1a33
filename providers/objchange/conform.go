package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// AssertObjectConforms checks that v has a type conforming to the schema
// ("Provider produced invalid object" / "invalid plan" when it does not).
// A null value of any type conforms only if its type does.
func AssertObjectConforms(schema *providers.Block, v cty.Value) []error {
	if v == cty.NilVal {
		return []error{cty.Path(nil).NewErrorf("provider returned no object")}
	}
	want := schema.ImpliedType()
	if typeConforms(v.Type(), want) {
		return nil
	}
	return v.Type().TestConformance(want)
}
