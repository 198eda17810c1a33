package null

import (
	"context"
	"crypto/rand"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// dataSourceSchema is null_data_source's, deprecated as in hashicorp/null
// in favour of locals or terraform_data.
var dataSourceSchema = &providers.Block{
	Description: "Deprecated: use locals or terraform_data. Copies inputs to outputs without touching anything.",
	Deprecated:  true,
	Attributes: map[string]*providers.Attribute{
		"inputs":  {Type: cty.Map(cty.String), Optional: true, Description: "Arbitrary strings, copied to outputs."},
		"outputs": {Type: cty.Map(cty.String), Computed: true, Description: "A copy of inputs."},
		"random":  {Type: cty.String, Computed: true, Description: "A random decimal number, new on every read."},
		"has_computed_default": {Type: cty.String, Optional: true, Computed: true,
			Description: `The configured text, or "default" when unset.`},
		"id": {Type: cty.String, Computed: true, Deprecated: true, Description: `Always "static"; do not use.`},
	},
}

func readDataSource(_ context.Context, config cty.Value) (cty.Value, providers.Diagnostics) {
	var diags providers.Diagnostics
	n, err := rand.Int(rand.Reader, maxID)
	if err != nil {
		return cty.NilVal, diags.Errorf(nil, "Cannot generate a random value", "Reading random bytes failed: "+err.Error()+". Try again.")
	}
	def := config.GetAttr("has_computed_default")
	if def.IsNull() {
		def = cty.StringVal("default")
	}
	return cty.ObjectVal(map[string]cty.Value{
		"inputs":               config.GetAttr("inputs"),
		"outputs":              config.GetAttr("inputs"),
		"random":               cty.StringVal(n.String()),
		"has_computed_default": def,
		"id":                   cty.StringVal("static"),
	}), nil
}
