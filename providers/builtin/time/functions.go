package time

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// rfc3339PartsType is what rfc3339_parse returns, as in hashicorp/time.
var rfc3339PartsType = cty.Object(map[string]cty.Type{
	"year":         cty.Number,
	"year_day":     cty.Number,
	"day":          cty.Number,
	"month":        cty.Number,
	"month_name":   cty.String,
	"weekday":      cty.Number,
	"weekday_name": cty.String,
	"hour":         cty.Number,
	"minute":       cty.Number,
	"second":       cty.Number,
	"unix":         cty.Number,
	"iso_year":     cty.Number,
	"iso_week":     cty.Number,
})

var functions = map[string]*kit.Function{
	"rfc3339_parse": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "timestamp", Type: cty.String,
				Description: "RFC3339 timestamp string to parse",
			}},
			ReturnType:  rfc3339PartsType,
			Summary:     "Parse an RFC3339 timestamp string into an object",
			Description: "Given an RFC3339 timestamp string, will parse and return an object representation of that date and time.",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return rfc3339Parts(args[0].AsString())
		},
	},
}

// rfc3339Parts splits a timestamp into its calendar parts, in the
// timestamp's own offset (not UTC), as hashicorp/time does.
func rfc3339Parts(timestamp string) (cty.Value, *providers.FunctionError) {
	t, err := time.Parse(time.RFC3339, timestamp)
	if err != nil {
		return cty.UnknownVal(rfc3339PartsType), kit.ArgError(0,
			fmt.Sprintf("Error parsing RFC3339 timestamp: %q is not a valid RFC3339 timestamp", timestamp))
	}
	isoYear, isoWeek := t.ISOWeek()
	num := func(n int) cty.Value { return cty.NumberIntVal(int64(n)) }
	return cty.ObjectVal(map[string]cty.Value{
		"year":         num(t.Year()),
		"year_day":     num(t.YearDay()),
		"day":          num(t.Day()),
		"month":        num(int(t.Month())),
		"month_name":   cty.StringVal(t.Month().String()),
		"weekday":      num(int(t.Weekday())),
		"weekday_name": cty.StringVal(t.Weekday().String()),
		"hour":         num(t.Hour()),
		"minute":       num(t.Minute()),
		"second":       num(t.Second()),
		"unix":         cty.NumberIntVal(t.Unix()),
		"iso_year":     num(isoYear),
		"iso_week":     num(isoWeek),
	}), nil
}
