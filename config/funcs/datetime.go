package funcs

import (
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// timestampFunc is impure: Table wraps it to return unknown when planning,
// so the time is taken only when applying.
var timestampFunc = function.New(&function.Spec{
	Description:  "Returns the current UTC time in RFC 3339 format.",
	Params:       []function.Parameter{},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})

// makePlanTimestampFunc returns a function that always answers the time the
// plan was made, or unknown when there is no plan (validate).
func makePlanTimestampFunc(planned time.Time) function.Function {
	return function.New(&function.Spec{
		Description:  "Returns the time the plan was made, in RFC 3339 format.",
		Params:       []function.Parameter{},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
			if planned.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(planned.UTC().Format(time.RFC3339)), nil
		},
	})
}

// timeCmpFunc compares two RFC 3339 timestamps: -1, 0 or 1.
var timeCmpFunc = twoStringFunc("Compares two RFC 3339 timestamps, returning -1, 0 or 1.", "timestamp_a", "timestamp_b", cty.Number, func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	var times [2]time.Time
	for i := range times {
		t, err := time.Parse(time.RFC3339, args[i].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(i, "not a valid RFC3339 timestamp: %q", args[i].AsString())
		}
		times[i] = t
	}
	return cty.NumberIntVal(int64(times[0].Compare(times[1]))), nil
})
