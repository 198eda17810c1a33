package time

import (
	"fmt"
	"math/big"
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

// unixPartsType is what unix_timestamp_parse returns: rfc3339_parse's
// parts with the timestamp in place of the Unix time.
var unixPartsType = cty.Object(map[string]cty.Type{
	"year":         cty.Number,
	"year_day":     cty.Number,
	"day":          cty.Number,
	"month":        cty.Number,
	"month_name":   cty.String,
	"weekday":      cty.Number,
	"weekday_name": cty.String,
	"hour":         cty.Number,
	"minute":       cty.Number,
	"rfc3339":      cty.String,
	"second":       cty.Number,
	"iso_year":     cty.Number,
	"iso_week":     cty.Number,
})

// durationPartsType is what duration_parse returns: the whole duration
// in each unit, fractional for hours, minutes and seconds.
var durationPartsType = cty.Object(map[string]cty.Type{
	"hours":        cty.Number,
	"minutes":      cty.Number,
	"seconds":      cty.Number,
	"milliseconds": cty.Number,
	"microseconds": cty.Number,
	"nanoseconds":  cty.Number,
})

// functions are hashicorp/time v0.14.2's, with its declarations' texts.
var functions = map[string]*kit.Function{
	"duration_parse": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "duration", Type: cty.String,
				Description: "Go time package duration string to parse",
			}},
			ReturnType:  durationPartsType,
			Summary:     "Parse a [Go duration string](https://pkg.go.dev/time#ParseDuration) into an object",
			Description: "Given a [Go duration string](https://pkg.go.dev/time#ParseDuration), will parse and return an object representation of that duration.",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return durationParts(args[0].AsString())
		},
	},
	"unix_timestamp_parse": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "unix_timestamp", Type: cty.Number,
				Description: "Unix Timestamp integer to parse",
			}},
			ReturnType:  unixPartsType,
			Summary:     "Parse a unix timestamp integer into an object",
			Description: "Given a unix timestamp integer, will parse and return an object representation of that date and time. A unix timestamp is the number of seconds elapsed since January 1, 1970 UTC.",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return unixParts(args[0])
		},
	},
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

func durationParts(s string) (cty.Value, *providers.FunctionError) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return cty.UnknownVal(durationPartsType), kit.ArgError(0,
			fmt.Sprintf("Error parsing duration string: %q is not a valid duration string", s))
	}
	return cty.ObjectVal(map[string]cty.Value{
		"hours":        cty.NumberFloatVal(d.Hours()),
		"minutes":      cty.NumberFloatVal(d.Minutes()),
		"seconds":      cty.NumberFloatVal(d.Seconds()),
		"milliseconds": cty.NumberIntVal(d.Milliseconds()),
		"microseconds": cty.NumberIntVal(d.Microseconds()),
		"nanoseconds":  cty.NumberIntVal(d.Nanoseconds()),
	}), nil
}

// unixParts splits a Unix time (whole seconds) into its parts in UTC.
func unixParts(v cty.Value) (cty.Value, *providers.FunctionError) {
	bf := v.AsBigFloat()
	secs, acc := bf.Int64()
	if !bf.IsInt() || acc != big.Exact {
		return cty.UnknownVal(unixPartsType), kit.ArgError(0, unixNotInt64(bf))
	}
	t := time.Unix(secs, 0).UTC()
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
		"rfc3339":      cty.StringVal(t.Format(time.RFC3339)),
		"second":       num(t.Second()),
		"iso_year":     num(isoYear),
		"iso_week":     num(isoWeek),
	}), nil
}

// unixNotInt64 is the plugin framework's text (terraform-plugin-framework,
// as hashicorp/time v0.14.2 builds it) for a number argument that is not
// a 64-bit integer, down to its misformatted value, so that the built-in
// and the plugin fail alike.
func unixNotInt64(bf *big.Float) string {
	problem := "is not an integer"
	if bf.IsInt() {
		problem = "cannot be represented as a 64-bit integer"
	}
	return "Unable to Convert Function Argument" +
		"An unexpected error was encountered when converting the function argument from the protocol type. " +
		"Please report this to the provider developer:\n\n" +
		fmt.Sprintf("Unable to convert tftypes to framework type at position 0: Value %s %s.", bf, problem)
}
