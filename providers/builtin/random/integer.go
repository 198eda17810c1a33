package random

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

var integerSchema = &providers.Block{
	Description: "A random whole number in a range.",
	Attributes: map[string]*providers.Attribute{
		"keepers": keepersAttribute,
		"min":     {Type: cty.Number, Required: true, Description: "The smallest number that may be chosen."},
		"max":     {Type: cty.Number, Required: true, Description: "The largest number that may be chosen."},
		"seed":    {Type: cty.String, Optional: true, Description: "When set, the same seed and range always give the same number."},
		"result":  {Type: cty.Number, Computed: true, Description: "The chosen number."},
		"id":      {Type: cty.String, Computed: true, Description: "The chosen number as a string."},
	},
}

func validateInteger(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	lo, loOK := kit.Int(config, "min")
	hi, hiOK := kit.Int(config, "max")
	for name, ok := range map[string]bool{"min": loOK, "max": hiOK} {
		if v, known := kit.Known(config, name); known && !ok {
			diags = diags.Errorf(cty.GetAttrPath(name), "Invalid "+name,
				fmt.Sprintf("%s must be a whole number, not %s.", name, v.AsBigFloat().String()))
		}
	}
	if loOK && hiOK && lo > hi {
		diags = diags.Errorf(cty.GetAttrPath("max"), "Invalid range",
			fmt.Sprintf("max (%d) is less than min (%d). Swap them or widen the range.", hi, lo))
	}
	return diags
}

func applyInteger(planned cty.Value) (cty.Value, providers.Diagnostics) {
	lo, _ := kit.Int(planned, "min")
	hi, _ := kit.Int(planned, "max")
	span := new(big.Int).Sub(big.NewInt(hi), big.NewInt(lo))
	span.Add(span, big.NewInt(1))
	var offset *big.Int
	if seed := kit.String(planned, "seed"); seed != "" {
		if !span.IsInt64() {
			var diags providers.Diagnostics
			return cty.NilVal, diags.Errorf(cty.GetAttrPath("max"), "Range too wide for a seed",
				"With a seed, max - min + 1 must fit in a signed 64-bit number. Narrow the range or drop the seed.")
		}
		offset = big.NewInt(int64(seededRand(seed).Intn(int(span.Int64()))))
	} else {
		var err error
		if offset, err = rand.Int(rand.Reader, span); err != nil {
			return cty.NilVal, randomFailed(err)
		}
	}
	n := lo + offset.Int64()
	return withValues(planned, map[string]cty.Value{
		"result": cty.NumberIntVal(n),
		"id":     cty.StringVal(strconv.FormatInt(n, 10)),
	}), nil
}
