package planjson

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// The JSON plan is written by appending to a byte slice rather than through
// encoding/json: key order must follow OpenTofu's, and plans with 100k
// changes should not pay for reflection. In write_test.go,
// BenchmarkMarshalJSON100k times the writer, values included, and
// BenchmarkMarshalJSONStd100k encoding/json writing the same document
// from decoded JSON, values already converted. Strings are escaped exactly
// as encoding/json does (HTML-safe), so output is byte-compatible.

// appendString appends s as a JSON string, escaped as encoding/json does.
func appendString(b []byte, s string) []byte { return jsontext.AppendQuote(b, s) }

// appendKey appends `"k":`, preceded by a comma unless b ends an opening brace.
func appendKey(b []byte, k string) []byte {
	b = appendComma(b)
	b = appendString(b, k)
	return append(b, ':')
}

// appendComma separates a member or element from the previous one.
func appendComma(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] != '{' && b[n-1] != '[' {
		b = append(b, ',')
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func appendUint(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

func appendStrings(b []byte, ss []string) []byte { return jsontext.AppendQuoteArray(b, ss) }

// appendRaw appends an already-encoded JSON document, compacted; invalid
// or empty input becomes null.
func appendRaw(b []byte, raw []byte) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return append(b, "null"...)
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return append(b, "null"...)
	}
	return buf.Bytes()
}
