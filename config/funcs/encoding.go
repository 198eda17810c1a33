package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

var base64EncodeFunc = stringFunc("Encodes the UTF-8 bytes of a string as Base64.", "str", cannotFail(func(s string) string {
	return base64.StdEncoding.EncodeToString([]byte(s))
}))

var base64DecodeFunc = function.New(&function.Spec{
	Description:  "Decodes a Base64 string whose bytes are UTF-8 text.",
	Params:       []function.Parameter{secretStringParam("str")},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: base64Impl(func(raw []byte) (cty.Value, error) {
		if !utf8.Valid(raw) {
			return cty.NilVal, function.NewArgError(0, errNotUTF8)
		}
		return cty.StringVal(string(raw)), nil
	}),
})

var base64GzipFunc = stringFunc("Compresses a string with gzip and encodes the result as Base64.", "str", func(s string) (string, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(s)); err != nil {
		return "", fmt.Errorf("failed to write gzip raw data: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("failed to close gzip writer: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
})

var base64GunzipFunc = function.New(&function.Spec{
	Description:  "Decodes a Base64 string and decompresses it with gzip.",
	Params:       []function.Parameter{secretStringParam("str")},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: base64Impl(func(raw []byte) (cty.Value, error) {
		r, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to gunzip bytestream: %s", err)
		}
		out, err := io.ReadAll(r)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to read gunzip raw data: %s", err)
		}
		return cty.StringVal(string(out)), nil
	}),
})

var textEncodeBase64Func = twoStringFunc("Encodes a string in the named character encoding and returns the bytes as Base64.", "string", "encoding", cty.String, withEncoding(func(enc encoding.Encoding, args []cty.Value) (cty.Value, error) {
	encoded, err := enc.NewEncoder().String(args[0].AsString())
	if err != nil {
		return cty.NilVal, function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", args[1].AsString())
	}
	return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(encoded))), nil
}))

var textDecodeBase64Func = twoStringFunc("Decodes Base64 bytes written in the named character encoding into a string.", "source", "encoding", cty.String, withEncoding(func(enc encoding.Encoding, args []cty.Value) (cty.Value, error) {
	raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
	if err != nil {
		if corrupt, ok := err.(base64.CorruptInputError); ok {
			return cty.NilVal, function.NewArgErrorf(0, "the given value has an invalid base64 symbol at offset %d", int(corrupt))
		}
		return cty.NilVal, function.NewArgErrorf(0, "invalid source string: %s", err)
	}
	decoded, err := enc.NewDecoder().Bytes(raw)
	if err != nil || !utf8.Valid(decoded) {
		return cty.NilVal, function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", args[1].AsString())
	}
	return cty.StringVal(string(decoded)), nil
}))

// withEncoding is the Impl of a function whose second argument names a
// character encoding, which impl gets looked up.
func withEncoding(impl func(enc encoding.Encoding, args []cty.Value) (cty.Value, error)) function.ImplFunc {
	return func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, err := ianaindex.IANA.Encoding(args[1].AsString())
		if err != nil || enc == nil {
			return cty.NilVal, function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias", args[1].AsString())
		}
		return impl(enc, args)
	}
}

// base64Impl is the secretStringImpl of a function whose argument is
// Base64, which impl gets decoded.
func base64Impl(impl func(raw []byte) (cty.Value, error)) function.ImplFunc {
	return secretStringImpl(func(str, quoted string) (cty.Value, error) {
		raw, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to decode base64 data %s", quoted)
		}
		return impl(raw)
	})
}

// secretStringParam and secretStringImpl serve single-string functions
// whose error messages quote their argument: the function sees the marks
// itself so it can avoid quoting a sensitive value, then puts the marks
// back on the result (unknown or not) as cty would have done.
func secretStringParam(name string) function.Parameter {
	return function.Parameter{Name: name, Type: cty.String, AllowMarked: true, AllowUnknown: true}
}

func secretStringImpl(impl func(str, quoted string) (cty.Value, error)) function.ImplFunc {
	return func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		if !str.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks), nil
		}
		quoted := fmt.Sprintf("%q", str.AsString())
		if _, ok := marks[SensitiveMark]; ok {
			quoted = "(sensitive value)"
		}
		ret, err := impl(str.AsString(), quoted)
		if err != nil {
			return cty.NilVal, err
		}
		return ret.WithMarks(marks), nil
	}
}
