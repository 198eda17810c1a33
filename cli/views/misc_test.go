package views

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

func TestRenderDiagnostics(t *testing.T) {
	src := "resource \"terraform_data\" \"a\" {\n  input = foo\n}\n"
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"main.tf": f}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid reference",
		Detail:   "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
		Subject:  &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 11, Byte: 42}, End: hcl.Pos{Line: 2, Column: 14, Byte: 45}},
	}
	// Without colour, as OpenTofu: no frame, the detail wrapped one
	// column short of the width.
	var plain bytes.Buffer
	if err := RenderDiagnostics(&plain, hcl.Diagnostics{d}, files, false, 60); err != nil {
		t.Fatal(err)
	}
	wantPlain := `
Error: Invalid reference

  on main.tf line 2, in resource "terraform_data" "a":
   2:   input = foo

A reference to a resource type must be followed by at least
one attribute access, specifying the resource name.
`
	if diff := cmp.Diff(wantPlain, plain.String()); diff != "" {
		t.Errorf("plain (-want +got):\n%s", diff)
	}

	var buf bytes.Buffer
	if err := RenderDiagnostics(&buf, hcl.Diagnostics{d}, files, true, 60); err != nil {
		t.Fatal(err)
	}
	// With colour, framed, byte for byte as OpenTofu writes it (resets
	// included), the detail wrapped three columns short of the width.
	const (
		bar   = "\x1b[31m│\x1b[0m \x1b[0m"
		reset = "\x1b[0m"
	)
	want := "\x1b[31m╷\x1b[0m\x1b[0m\n" +
		bar + "\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mInvalid reference\x1b[0m\n" +
		bar + "\n" +
		bar + reset + "  on main.tf line 2, in resource \"terraform_data\" \"a\":\n" +
		bar + "   2:   input = \x1b[4mfoo\x1b[0m\x1b[0m\n" +
		bar + "\n" +
		bar + "A reference to a resource type must be followed by at\n" +
		bar + "least one attribute access, specifying the resource name.\n" +
		"\x1b[31m╵\x1b[0m\x1b[0m\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	ctx := `resource "terraform_data" "a"`
	wantJSON := DiagnosticMessage{
		Severity: "error", Summary: d.Summary, Detail: d.Detail,
		Range: &DiagnosticRange{Filename: "main.tf", Start: DiagnosticPos{2, 11, 42}, End: DiagnosticPos{2, 14, 45}},
		Snippet: &DiagnosticCode{Context: &ctx, Code: "  input = foo", StartLine: 2,
			HighlightStartOffset: 10, HighlightEndOffset: 13, Values: []DiagnosticExprValue{}},
	}
	if diff := cmp.Diff(wantJSON, DiagnosticJSON(d, files)); diff != "" {
		t.Errorf("json (-want +got):\n%s", diff)
	}
}

// Diagnostics without source text at hand, as OpenTofu 1.10.6 prints
// them: a blank line closes a summary no detail follows; a range in a file
// the renderer has no source for (here a -var value, as OpenTofu names it)
// says so under the location, as for `plan -var 'n=[1,'`.
func TestRenderDiagnosticsWithoutSource(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *hcl.Diagnostic
		want string
	}{
		{"no range", &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Deprecated flag"}, "\nWarning: Deprecated flag\n\n"},
		{"source not available", &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing expression",
			Detail:   "Expected the start of an expression, but found the end of the file.",
			Subject:  &hcl.Range{Filename: "<value for var.n>", Start: hcl.Pos{Line: 1, Column: 4, Byte: 3}, End: hcl.Pos{Line: 1, Column: 4, Byte: 3}},
		}, "\nError: Missing expression\n\n  on <value for var.n> line 1:\n  (source code not available)\n\nExpected the start of an expression, but found the end of the file.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RenderDiagnostics(&buf, hcl.Diagnostics{tc.d}, nil, false, 78); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiagnosticExpressionValues(t *testing.T) {
	expr, diags := hclsyntax.ParseExpression([]byte(`var.n > 5 && var.s != "" && var.l != null && var.secret != "" && var.later != ""`), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{
		"n":      cty.NumberIntVal(1),
		"s":      cty.StringVal("x"),
		"l":      cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"secret": cty.StringVal("hunter2").Mark(funcs.SensitiveMark),
		"later":  cty.UnknownVal(cty.String),
	})}}
	got := expressionValues(&hcl.Diagnostic{Expression: expr, EvalContext: ctx})
	want := []string{
		"var.l is list of string with 2 elements",
		"var.later is a string",
		"var.n is 1",
		`var.s is "x"`,
		// var.secret is not mentioned: it is not what the diagnostic is
		// about (as OpenTofu).
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDescribeValueCounts pins how collections, tuples and objects are
// counted in a diagnostic's expression values.
func TestDescribeValueCounts(t *testing.T) {
	str := cty.StringVal("a")
	for _, tc := range []struct {
		v    cty.Value
		want string
	}{
		{cty.ListValEmpty(cty.String), "is empty list of string"},
		{cty.SetVal([]cty.Value{str}), "is set of string with 1 element"},
		{cty.MapVal(map[string]cty.Value{"a": str, "b": str}), "is map of string with 2 elements"},
		{cty.EmptyTupleVal, "is empty tuple"},
		{cty.TupleVal([]cty.Value{str}), "is tuple with 1 element"},
		{cty.TupleVal([]cty.Value{str, cty.True}), "is tuple with 2 elements"},
		{cty.EmptyObjectVal, "is object with no attributes"},
		{cty.ObjectVal(map[string]cty.Value{"a": str}), "is object with 1 attribute \"a\""},
		{cty.ObjectVal(map[string]cty.Value{"a": str, "b": str}), "is object with 2 attributes"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := describeValue(tc.v); got != tc.want {
				t.Errorf("describeValue(%#v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

func TestRawOutputValueAndJSON(t *testing.T) {
	raw := []struct {
		v       cty.Value
		want    string
		wantErr bool
	}{
		{cty.StringVal("a\"b"), "a\"b", false},
		{cty.NumberVal(big.NewFloat(1.5)), "1.5", false},
		{cty.True, "true", false},
		{cty.ListValEmpty(cty.String), "", true},
		{cty.NullVal(cty.String), "", true},
	}
	for _, r := range raw {
		got, err := RawOutputValue("o", r.v)
		if (err != nil) != r.wantErr || got != r.want {
			t.Errorf("RawOutputValue(%#v) = %q, %v", r.v, got, err)
		}
	}

	js, err := OutputsJSON(map[string]OutputValue{"secret": {Value: cty.StringVal("hunter2"), Sensitive: true}})
	if err != nil {
		t.Fatal(err)
	}
	wantJS := "{\n  \"secret\": {\n    \"sensitive\": true,\n    \"type\": \"string\",\n    \"value\": \"hunter2\"\n  }\n}\n"
	if diff := cmp.Diff(wantJS, string(js)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// resourceAddr stands for the engine's address Extra on a provider's
// diagnostic about one resource instance.
type resourceAddr string

func (a resourceAddr) DiagnosticResourceAddress() string { return string(a) }

// TestDiagnosticResourceAddress: a diagnostic about a resource instance
// shows OpenTofu's "with ADDR," line before its source, and the JSON form
// its "address", as OpenTofu recorded for a provider's create error.
func TestDiagnosticResourceAddress(t *testing.T) {
	src := []byte("resource \"time_sleep\" \"s\" {\n  create_duration = \"30s\"\n}\n")
	f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"main.tf": f}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError, Summary: "Create time sleep error", Detail: "Original Error: context canceled",
		Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 27, Byte: 26}, End: hcl.Pos{Line: 1, Column: 28, Byte: 27}},
		Extra:   resourceAddr("time_sleep.s"),
	}
	var buf bytes.Buffer
	if err := RenderDiagnostics(&buf, hcl.Diagnostics{d}, files, false, 78); err != nil {
		t.Fatal(err)
	}
	want := "\nError: Create time sleep error\n\n  with time_sleep.s,\n  on main.tf line 1, in resource \"time_sleep\" \"s\":\n   1: resource \"time_sleep\" \"s\" {\n\nOriginal Error: context canceled\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("human (-want +got):\n%s", diff)
	}
	if got := DiagnosticJSON(d, files).Address; got != "time_sleep.s" {
		t.Errorf("JSON address %q, want time_sleep.s", got)
	}
	d.Extra = nil
	buf.Reset()
	if err := RenderDiagnostics(&buf, hcl.Diagnostics{d}, files, false, 78); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("with ")) || DiagnosticJSON(d, files).Address != "" {
		t.Errorf("a diagnostic without an address shows one:\n%s", buf.String())
	}
}
