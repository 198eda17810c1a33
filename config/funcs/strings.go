package funcs

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// replaceFunc replaces every occurrence of a substring. A search string
// written between slashes ("/a+/") is a regular expression, and the
// replacement may then use $1-style group references.
var replaceFunc = function.New(&function.Spec{
	Description: "Replaces each occurrence of substr in str; /slashed/ substr values are regular expressions.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "invalid regular expression: %s", err)
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})

// startsWithFunc can answer for an unknown string whose refinement already
// fixes a long enough prefix.
var startsWithFunc = function.New(&function.Spec{
	Description: "Reports whether the string begins with the given prefix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		prefix := args[1].AsString()
		if !args[0].IsKnown() {
			known := args[0].Range().StringPrefix()
			switch {
			case strings.HasPrefix(known, prefix):
				return cty.True, nil
			case len(known) >= len(prefix) || !strings.HasPrefix(prefix, known):
				return cty.False, nil
			}
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.BoolVal(strings.HasPrefix(args[0].AsString(), prefix)), nil
	},
})

var endsWithFunc = twoStringFunc("Reports whether the string ends with the given suffix.", "str", "suffix", cty.Bool, func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	return cty.BoolVal(strings.HasSuffix(args[0].AsString(), args[1].AsString())), nil
})

var strContainsFunc = twoStringFunc("Reports whether the string contains the given substring.", "str", "substr", cty.Bool, func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
})

// urlEncodeFunc applies query-string escaping (spaces become "+").
var urlEncodeFunc = stringFunc("Applies URL query encoding to the given string.", "str", cannotFail(url.QueryEscape))

var urlDecodeFunc = stringFunc("Decodes a URL query-encoded string.", "str", func(s string) (string, error) {
	out, err := url.QueryUnescape(s)
	if err != nil {
		return "", fmt.Errorf("failed to decode URL %q: %w", s, err)
	}
	return out, nil
})

var errNotUTF8 = errors.New("the result of decoding the provided string is not valid UTF-8")
