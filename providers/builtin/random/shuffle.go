package random

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

var shuffleSchema = &providers.Block{
	Description: "A random permutation of a list of strings.",
	Attributes: map[string]*providers.Attribute{
		"keepers": keepersAttribute,
		"seed": {Type: cty.String, Optional: true,
			Description: "When set, the same seed and input always give the same order (the order hashicorp/random gives)."},
		"input": {Type: cty.List(cty.String), Required: true, Description: "The strings to shuffle."},
		"result_count": {Type: cty.Number, Optional: true,
			Description: "How many strings to return (default: as many as input has). More than input repeats items, a whole permutation at a time."},
		"result": {Type: cty.List(cty.String), Computed: true, Description: "The shuffled strings."},
		"id":     {Type: cty.String, Computed: true, Description: `Always "-".`},
	},
}

func validateShuffle(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	if v, ok := kit.Known(config, "result_count"); ok {
		if n, isInt := kit.Int(config, "result_count"); !isInt || n < 0 || n > 1<<20 {
			diags = diags.Errorf(cty.GetAttrPath("result_count"), "Invalid result_count",
				fmt.Sprintf("result_count must be a whole number between 0 and 1048576, not %s.", v.AsBigFloat().String()))
		}
	}
	return diags
}

// applyShuffle concatenates permutations of input until result_count
// items are chosen. A seed makes the permutations those of
// hashicorp/random for the same seed; without one (or with an empty
// one) the order depends on the time, as there.
func applyShuffle(planned cty.Value) (cty.Value, providers.Diagnostics) {
	var input []cty.Value
	if v := planned.GetAttr("input"); !v.IsNull() && v.LengthInt() > 0 {
		input = v.AsValueSlice()
	}
	count, _ := kit.Int(planned, "result_count")
	if count == 0 {
		count = int64(len(input))
	}
	result := make([]cty.Value, 0, count)
	if len(input) > 0 {
		var r *rand.Rand
		if seed := kit.String(planned, "seed"); seed != "" {
			r = seededRand(seed)
		} else {
			r = rand.New(rand.NewSource(time.Now().UnixNano()))
		}
		for int64(len(result)) < count {
			for _, i := range r.Perm(len(input)) {
				result = append(result, input[i])
				if int64(len(result)) == count {
					break
				}
			}
		}
	}
	list := cty.ListValEmpty(cty.String)
	if len(result) > 0 {
		list = cty.ListVal(result)
	}
	return withValues(planned, map[string]cty.Value{"result": list, "id": cty.StringVal("-")}), nil
}
