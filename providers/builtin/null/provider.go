package null

import (
	"context"
	"crypto/rand"
	"math/big"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in null provider.
type Provider struct {
	kit.Base
}

var _ providers.Interface = (*Provider)(nil)

var resourceSchema = &providers.Block{
	Description: "A resource that does nothing; changing its triggers replaces it.",
	Attributes: map[string]*providers.Attribute{
		"id": {Type: cty.String, Computed: true, Description: "A random decimal number chosen at creation."},
		"triggers": {Type: cty.Map(cty.String), Optional: true,
			Description: "Arbitrary values; any change replaces the resource."},
	},
}

// New starts a null provider.
func New() providers.Interface {
	planner := &kit.Planner{Schema: resourceSchema}
	return &Provider{Base: kit.Base{
		Name:   "null",
		Config: providers.Schema{Block: &providers.Block{}},
		Resources: map[string]*kit.Resource{
			"null_resource": {
				Schema:  providers.Schema{Block: resourceSchema},
				Planner: planner,
				Apply:   apply,
			},
		},
		DataSources: map[string]*kit.DataSource{
			"null_data_source": {Schema: providers.Schema{Block: dataSourceSchema}, Read: readDataSource},
		},
	}}
}

var maxID = new(big.Int).SetUint64(1<<63 - 1)

func apply(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	var diags providers.Diagnostics
	state := kit.FillUnknown(req.PlannedState, func(string) cty.Value {
		n, err := rand.Int(rand.Reader, maxID)
		if err != nil {
			diags = diags.Errorf(nil, "Cannot generate an identifier", "Reading random bytes failed: "+err.Error()+". Try again.")
			return cty.StringVal("0")
		}
		return cty.StringVal(n.String())
	})
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags}
	}
	return providers.ApplyResourceChangeResponse{NewState: state}
}
