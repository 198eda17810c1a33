package testprovider

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// tfType converts through the JSON type notation both libraries share.
func tfType(ty cty.Type) tftypes.Type {
	b, err := ty.MarshalJSON()
	if err != nil {
		panic(err)
	}
	out, err := tftypes.ParseJSONType(b) //nolint:staticcheck // the simplest exact conversion
	if err != nil {
		panic(err)
	}
	return out
}

func attrPath(p cty.Path) *tftypes.AttributePath {
	if len(p) == 0 {
		return nil
	}
	out := tftypes.NewAttributePath()
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			out = out.WithAttributeName(s.Name)
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				out = out.WithElementKeyString(s.Key.AsString())
			} else {
				i, _ := s.Key.AsBigFloat().Int64()
				out = out.WithElementKeyInt(int(i))
			}
		}
	}
	return out
}

// wireNesting maps tenet's nesting modes to the protocol's enum values.
var wireNesting = map[providers.NestingMode]int32{
	providers.NestingSingle: 1, providers.NestingList: 2, providers.NestingSet: 3,
	providers.NestingMap: 4, providers.NestingGroup: 5,
}
