package funcs

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// testFS is the working directory the file functions see in tests.
var testFS = fstest.MapFS{
	"hello.txt":            {Data: []byte("Hello World")},
	"binary.dat":           {Data: []byte{0xff, 0xfe, 0x00}},
	"mod/inner.txt":        {Data: []byte("inner")},
	"tmpl/greet.tmpl":      {Data: []byte("Hello, ${name}!")},
	"tmpl/list.tmpl":       {Data: []byte("${items}")},
	"tmpl/loop.tmpl":       {Data: []byte("%{ for i in items }[${upper(i)}]%{ endfor }")},
	"tmpl/missing.tmpl":    {Data: []byte("line one\n${nosuch}\n")},
	"tmpl/syntax.tmpl":     {Data: []byte("ok\n${\n")},
	"tmpl/badcall.tmpl":    {Data: []byte("a\nb ${upper([])}")},
	"tmpl/recurse.tmpl":    {Data: []byte(`${templatefile("tmpl/greet.tmpl", {name = "x"})}`)},
	"set/a.txt":            {Data: []byte("a")},
	"set/b.md":             {Data: []byte("b")},
	"set/sub/c.txt":        {Data: []byte("c")},
	"set/sub/deep/d.txt":   {Data: []byte("d")},
	"set/other/e.json":     {Data: []byte("{}")},
	"set/.hidden/f.txt":    {Data: []byte("f")},
	"set/sub/deep/x/y.txt": {Data: []byte("y")},
}

var testVars = map[string]cty.Value{
	"secret":      cty.StringVal("hunter2").Mark(SensitiveMark),
	"secret_list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}).Mark(SensitiveMark),
	"unknown_str": cty.UnknownVal(cty.String),
	"unknown_num": cty.UnknownVal(cty.Number),
	"unknown_lst": cty.UnknownVal(cty.List(cty.String)),
	"unknown_any": cty.DynamicVal,
	"null_str":    cty.NullVal(cty.String),
	"partly_unknown": cty.ListVal([]cty.Value{
		cty.StringVal("a"), cty.UnknownVal(cty.String),
	}),
	"bools_unknown_first": cty.ListVal([]cty.Value{cty.UnknownVal(cty.Bool), cty.True}),
	"prefixed":            cty.UnknownVal(cty.String).Refine().StringPrefix("ami-").NewValue(),
}

type evalCase struct {
	name string
	expr string
	want cty.Value
	// wantErr is the diagnostic summary expected instead of a value;
	// wantDetail, when set, must occur in its detail.
	wantErr    string
	wantDetail string
}

func evalExpr(t *testing.T, src string, opts Options) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags.Error())
	}
	return expr.Value(&hcl.EvalContext{Variables: testVars, Functions: Table(opts)})
}

// sameValue compares values including marks. An unknown want matches any
// unknown of the same type and marks: refinements are not part of the
// behaviour these tests pin down.
func sameValue(want, got cty.Value) bool {
	if want.IsKnown() || got.IsKnown() {
		return want.RawEquals(got)
	}
	wv, wm := want.Unmark()
	gv, gm := got.Unmark()
	return wv.Type().Equals(gv.Type()) && cmp.Equal(wm, gm)
}

func runCases(t *testing.T, opts Options, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := evalExpr(t, tc.expr, opts)
			if tc.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("%s: want error %q, got value %#v", tc.expr, tc.wantErr, got)
				}
				if diags[0].Summary != tc.wantErr {
					t.Errorf("%s: summary = %q, want %q (detail: %s)", tc.expr, diags[0].Summary, tc.wantErr, diags[0].Detail)
				}
				if !strings.Contains(diags[0].Detail, tc.wantDetail) {
					t.Errorf("%s: detail = %q, want it to contain %q", tc.expr, diags[0].Detail, tc.wantDetail)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s: unexpected error: %s", tc.expr, diags.Error())
			}
			if !sameValue(tc.want, got) {
				t.Errorf("%s:\n got %#v\nwant %#v", tc.expr, got, tc.want)
			}
		})
	}
}

func strs(ss ...string) cty.Value {
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.ListVal(vals)
}

func TestStringFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "upper", expr: `upper("abc")`, want: cty.StringVal("ABC")},
		{name: "lower", expr: `lower("ABC")`, want: cty.StringVal("abc")},
		{name: "chomp", expr: `chomp("a\n")`, want: cty.StringVal("a")},
		{name: "format", expr: `format("%s-%03d", "x", 7)`, want: cty.StringVal("x-007")},
		{name: "formatlist", expr: `formatlist("<%s>", ["a", "b"])`, want: strs("<a>", "<b>")},
		{name: "indent", expr: `indent(2, "a\nb")`, want: cty.StringVal("a\n  b")},
		{name: "join", expr: `join(",", ["a", "b"])`, want: cty.StringVal("a,b")},
		{name: "split", expr: `split(",", "a,b")`, want: strs("a", "b")},
		{name: "regex", expr: `regex("[0-9]+", "ab123")`, want: cty.StringVal("123")},
		{name: "regexall", expr: `regexall("[0-9]", "a1b2")`, want: strs("1", "2")},
		{name: "replace plain", expr: `replace("a.b.c", ".", "-")`, want: cty.StringVal("a-b-c")},
		{name: "replace regex", expr: `replace("hello world", "/(\\w+) (\\w+)/", "$2 $1")`, want: cty.StringVal("world hello")},
		{name: "replace slash alone is literal", expr: `replace("a/b", "/", "-")`, want: cty.StringVal("a-b")},
		{name: "replace bad regex", expr: `replace("a", "/(/", "b")`, wantErr: "Invalid function argument", wantDetail: "invalid regular expression"},
		{name: "strrev", expr: `strrev("abc")`, want: cty.StringVal("cba")},
		{name: "substr", expr: `substr("hello", 1, 3)`, want: cty.StringVal("ell")},
		{name: "title", expr: `title("hello world")`, want: cty.StringVal("Hello World")},
		{name: "trim", expr: `trim("?!a?!", "!?")`, want: cty.StringVal("a")},
		{name: "trimprefix", expr: `trimprefix("helloworld", "hello")`, want: cty.StringVal("world")},
		{name: "trimsuffix", expr: `trimsuffix("helloworld", "world")`, want: cty.StringVal("hello")},
		{name: "trimspace", expr: `trimspace("  a \n")`, want: cty.StringVal("a")},
		{name: "startswith", expr: `startswith("hello", "he")`, want: cty.True},
		{name: "startswith refined unknown", expr: `startswith(prefixed, "ami")`, want: cty.True},
		{name: "startswith refined mismatch", expr: `startswith(prefixed, "img")`, want: cty.False},
		{name: "startswith unknown", expr: `startswith(unknown_str, "x")`, want: cty.UnknownVal(cty.Bool)},
		{name: "endswith", expr: `endswith("hello", "lo")`, want: cty.True},
		{name: "strcontains", expr: `strcontains("hello", "ell")`, want: cty.True},
		{name: "strcontains no", expr: `strcontains("hello", "x")`, want: cty.False},
		{name: "upper null", expr: `upper(null)`, wantErr: "Invalid function argument", wantDetail: "must not be null"},
		{name: "upper unknown", expr: `upper(unknown_str)`, want: cty.UnknownVal(cty.String)},
		{name: "upper sensitive", expr: `upper(secret)`, want: cty.StringVal("HUNTER2").Mark(SensitiveMark)},
	})
}

func TestCollectionFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "length string", expr: `length("héllo")`, want: cty.NumberIntVal(5)},
		{name: "length list", expr: `length(["a", "b"])`, want: cty.NumberIntVal(2)},
		{name: "length map", expr: `length(tomap({a = 1}))`, want: cty.NumberIntVal(1)},
		{name: "length object", expr: `length({a = 1, b = unknown_str})`, want: cty.NumberIntVal(2)},
		{name: "length unknown list", expr: `length(unknown_lst)`, want: cty.UnknownVal(cty.Number)},
		{name: "length list with unknown element", expr: `length(partly_unknown)`, want: cty.NumberIntVal(2)},
		{name: "length sensitive", expr: `length(secret_list)`, want: cty.NumberIntVal(2).Mark(SensitiveMark)},
		{name: "length bool", expr: `length(true)`, wantErr: "Invalid function argument", wantDetail: "must be a string, a collection type, or a structural type"},
		{name: "length null", expr: `length(null)`, wantErr: "Invalid function argument", wantDetail: "must not be null"},
		{name: "coalesce skips null and empty", expr: `coalesce(null, "", "b")`, want: cty.StringVal("b")},
		{name: "coalesce numbers", expr: `coalesce(null, 2, 3)`, want: cty.NumberIntVal(2)},
		{name: "coalesce unknown first", expr: `coalesce(unknown_str, "b")`, want: cty.UnknownVal(cty.String)},
		{name: "coalesce known first", expr: `coalesce("a", unknown_str)`, want: cty.StringVal("a")},
		{name: "coalesce none", expr: `coalesce(null, "")`, wantErr: "Error in function call", wantDetail: "no non-null, non-empty-string arguments"},
		{name: "coalesce mixed", expr: `coalesce(["a"], "b")`, wantErr: "Error in function call", wantDetail: "all arguments must have the same type"},
		{name: "coalescelist", expr: `coalescelist([], ["a"])`, want: cty.TupleVal([]cty.Value{cty.StringVal("a")})},
		{name: "compact", expr: `compact(["a", "", null, "b"])`, want: strs("a", "b")},
		{name: "concat", expr: `concat(["a"], ["b"])`, want: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "contains", expr: `contains(["a", "b"], "b")`, want: cty.True},
		{name: "distinct", expr: `distinct(["a", "b", "a"])`, want: strs("a", "b")},
		{name: "element wraps", expr: `element(["a", "b"], 3)`, want: cty.StringVal("b")},
		{name: "element negative counts from end", expr: `element(["a", "b", "c"], -1)`, want: cty.StringVal("c")},
		{name: "element empty", expr: `element([], 0)`, wantErr: "Error in function call", wantDetail: "empty list"},
		{name: "flatten", expr: `flatten([["a"], [["b"]]])`, want: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "index", expr: `index(["a", "b"], "b")`, want: cty.NumberIntVal(1)},
		{name: "index missing", expr: `index(["a"], "z")`, wantErr: "Error in function call", wantDetail: "item not found"},
		{name: "index unknown element", expr: `index(partly_unknown, "z")`, want: cty.UnknownVal(cty.Number)},
		{name: "index of map", expr: `index(tomap({a = "b"}), "b")`, wantErr: "Invalid function argument", wantDetail: "must be a list or tuple"},
		{name: "keys", expr: `keys({b = 1, a = 2})`, want: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "values", expr: `values(tomap({b = "1", a = "2"}))`, want: strs("2", "1")},
		{name: "lookup found", expr: `lookup({a = "x"}, "a", "d")`, want: cty.StringVal("x")},
		{name: "lookup default", expr: `lookup(tomap({a = "x"}), "z", "d")`, want: cty.StringVal("d")},
		{name: "lookup null default", expr: `lookup({a = "x"}, "z", null)`, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "lookup null default map", expr: `lookup(tomap({a = "x"}), "z", null)`, want: cty.NullVal(cty.String)},
		{name: "lookup two args", expr: `lookup({a = "x"}, "a")`, want: cty.StringVal("x")},
		{name: "lookup two args missing", expr: `lookup(tomap({a = "x"}), "z")`, wantErr: "Error in function call", wantDetail: `lookup failed to find key "z"`},
		{name: "lookup object missing", expr: `lookup({a = "x"}, "z")`, wantErr: "Invalid function argument", wantDetail: `no attribute "z"`},
		{name: "lookup sensitive map", expr: `lookup(sensitive(tomap({a = "x"})), "a", "d")`, want: cty.StringVal("x").Mark(SensitiveMark)},
		{name: "lookup unknown key", expr: `lookup(tomap({a = "x"}), unknown_str, "d")`, want: cty.UnknownVal(cty.String)},
		{name: "lookup default wrong type", expr: `lookup(tomap({a = "x"}), "a", [])`, wantErr: "Invalid function argument", wantDetail: "same type as the map elements"},
		{name: "lookup of list", expr: `lookup(["a"], "a", "d")`, wantErr: "Invalid function argument", wantDetail: "requires a map"},
		{name: "matchkeys", expr: `matchkeys(["i-1", "i-2", "i-3"], ["a", "b", "a"], ["a"])`, want: strs("i-1", "i-3")},
		{name: "matchkeys none", expr: `matchkeys(["i-1"], ["a"], ["z"])`, want: cty.ListValEmpty(cty.String)},
		{name: "matchkeys length mismatch", expr: `matchkeys(["i-1"], ["a", "b"], ["a"])`, wantErr: "Error in function call", wantDetail: "length of keys and values should be equal"},
		{name: "merge", expr: `merge({a = 1}, {b = 2})`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)})},
		{name: "one of one", expr: `one(["a"])`, want: cty.StringVal("a")},
		{name: "one of empty", expr: `one([])`, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "one of empty list", expr: `one(tolist([]))`, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "one of two", expr: `one(["a", "b"])`, wantErr: "Invalid function argument", wantDetail: "either zero or one elements"},
		{name: "one unknown", expr: `one(unknown_lst)`, want: cty.UnknownVal(cty.String)},
		{name: "range", expr: `range(3)`, want: cty.ListVal([]cty.Value{cty.NumberIntVal(0), cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		{name: "range descending", expr: `range(3, 0, -1)`, want: cty.ListVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(2), cty.NumberIntVal(1)})},
		{name: "range too large", expr: `range(1e11)`, wantErr: "Error in function call", wantDetail: "more than 1024 values"},
		{name: "reverse", expr: `reverse(["a", "b"])`, want: cty.TupleVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")})},
		{name: "setintersection", expr: `setintersection(["a", "b"], ["b"])`, want: cty.SetVal([]cty.Value{cty.StringVal("b")})},
		{name: "setproduct", expr: `length(setproduct(["a", "b"], ["x", "y"]))`, want: cty.NumberIntVal(4)},
		{name: "setproduct too large", expr: `setproduct([for i in range(1000) : i], [for i in range(1000) : i], [1, 2])`, wantErr: "Error in function call", wantDetail: "2000000 elements"},
		{name: "setsubtract", expr: `setsubtract(["a", "b"], ["b"])`, want: cty.SetVal([]cty.Value{cty.StringVal("a")})},
		{name: "setunion", expr: `setunion(["a"], ["b"])`, want: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "slice", expr: `slice(["a", "b", "c"], 1, 3)`, want: cty.TupleVal([]cty.Value{cty.StringVal("b"), cty.StringVal("c")})},
		{name: "sort", expr: `sort(["b", "a"])`, want: strs("a", "b")},
		{name: "sum", expr: `sum([1, 2, 3.5])`, want: cty.NumberFloatVal(6.5)},
		{name: "sum empty", expr: `sum([])`, wantErr: "Invalid function argument", wantDetail: "cannot sum an empty list"},
		{name: "sum strings", expr: `sum(["a"])`, wantErr: "Invalid function argument", wantDetail: "number values"},
		{name: "sum unknown element", expr: `sum([1, unknown_num])`, want: cty.UnknownVal(cty.Number)},
		{name: "transpose", expr: `transpose({a = ["1", "2"], b = ["2"]})`, want: cty.MapVal(map[string]cty.Value{"1": strs("a"), "2": strs("a", "b")})},
		{name: "zipmap", expr: `zipmap(["a"], [1])`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		{name: "chunklist", expr: `chunklist(["a", "b", "c"], 2)`, want: cty.ListVal([]cty.Value{strs("a", "b"), strs("c")})},
		{name: "alltrue", expr: `alltrue([true, "true"])`, want: cty.True},
		{name: "alltrue empty", expr: `alltrue([])`, want: cty.True},
		{name: "alltrue false", expr: `alltrue([true, false])`, want: cty.False},
		{name: "alltrue unknown", expr: `alltrue(bools_unknown_first)`, want: cty.UnknownVal(cty.Bool)},
		{name: "anytrue", expr: `anytrue([false, true])`, want: cty.True},
		{name: "anytrue unknown then true", expr: `anytrue(bools_unknown_first)`, want: cty.True},
		{name: "anytrue empty", expr: `anytrue([])`, want: cty.False},
	})
}

func TestNumericFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "abs", expr: `abs(-3)`, want: cty.NumberIntVal(3)},
		{name: "ceil", expr: `ceil(1.2)`, want: cty.NumberIntVal(2)},
		{name: "floor", expr: `floor(1.8)`, want: cty.NumberIntVal(1)},
		{name: "log", expr: `log(8, 2)`, want: cty.NumberFloatVal(3)},
		{name: "max", expr: `max(1, 5, 3)`, want: cty.NumberIntVal(5)},
		{name: "min", expr: `min(1, 5, 3)`, want: cty.NumberIntVal(1)},
		{name: "parseint", expr: `parseint("ff", 16)`, want: cty.NumberIntVal(255)},
		{name: "pow", expr: `pow(2, 10)`, want: cty.NumberIntVal(1024)},
		{name: "signum", expr: `signum(-7)`, want: cty.NumberIntVal(-1)},
		{name: "max unknown", expr: `max(1, unknown_num)`, want: cty.UnknownVal(cty.Number)},
	})
}

func TestEncodingAndHashFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "base64encode", expr: `base64encode("Hello World")`, want: cty.StringVal("SGVsbG8gV29ybGQ=")},
		{name: "base64decode", expr: `base64decode("SGVsbG8gV29ybGQ=")`, want: cty.StringVal("Hello World")},
		{name: "base64decode invalid", expr: `base64decode("!!")`, wantErr: "Invalid function argument", wantDetail: `failed to decode base64 data "!!"`},
		{name: "base64decode sensitive invalid", expr: `base64decode(secret)`, wantErr: "Invalid function argument", wantDetail: "(sensitive value)"},
		{name: "base64decode sensitive", expr: `base64decode(sensitive("YQ=="))`, want: cty.StringVal("a").Mark(SensitiveMark)},
		{name: "base64decode unknown sensitive", expr: `base64decode(sensitive(unknown_str))`, want: cty.UnknownVal(cty.String).Mark(SensitiveMark)},
		{name: "base64decode not utf8", expr: `base64decode("//4=")`, wantErr: "Invalid function argument", wantDetail: "not valid UTF-8"},
		{name: "base64gzip round trip", expr: `base64gunzip(base64gzip("hello"))`, want: cty.StringVal("hello")},
		{name: "csvdecode", expr: `csvdecode("a,b\n1,2\n")`, want: cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")})})},
		{name: "jsonencode", expr: `jsonencode({a = [1, "b"], c = null})`, want: cty.StringVal(`{"a":[1,"b"],"c":null}`)},
		{name: "jsonencode null", expr: `jsonencode(null)`, want: cty.StringVal("null")},
		{name: "jsondecode", expr: `jsondecode("{\"a\":true}")`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.True})},
		{name: "jsondecode invalid", expr: `jsondecode("{")`, wantErr: "Error in function call"},
		{name: "urlencode", expr: `urlencode("a b&c/d")`, want: cty.StringVal("a+b%26c%2Fd")},
		{name: "urldecode", expr: `urldecode("a+b%26c")`, want: cty.StringVal("a b&c")},
		{name: "yamlencode", expr: `yamlencode({a = 1})`, want: cty.StringVal("\"a\": 1\n")},
		{name: "yamldecode", expr: `yamldecode("a: [1, x]")`, want: cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")})})},
		{name: "textencodebase64", expr: `textencodebase64("Hello", "UTF-16LE")`, want: cty.StringVal("SABlAGwAbABvAA==")},
		{name: "textdecodebase64", expr: `textdecodebase64("SABlAGwAbABvAA==", "UTF-16LE")`, want: cty.StringVal("Hello")},
		{name: "textencodebase64 bad encoding", expr: `textencodebase64("a", "NOPE")`, wantErr: "Invalid function argument", wantDetail: "not a supported IANA encoding"},
		{name: "md5", expr: `md5("hello world")`, want: cty.StringVal("5eb63bbbe01eeed093cb22bb8f5acdc3")},
		{name: "sha1", expr: `sha1("hello world")`, want: cty.StringVal("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed")},
		{name: "sha256", expr: `sha256("hello world")`, want: cty.StringVal("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")},
		{name: "sha512 length", expr: `length(sha512("x"))`, want: cty.NumberIntVal(128)},
		{name: "base64sha256", expr: `base64sha256("hello world")`, want: cty.StringVal("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=")},
		{name: "base64sha512 length", expr: `length(base64sha512("x"))`, want: cty.NumberIntVal(88)},
		{name: "sha256 sensitive", expr: `issensitive(sha256(secret))`, want: cty.True},
		{name: "uuidv5 dns", expr: `uuidv5("dns", "www.terraform.io")`, want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		{name: "uuidv5 url", expr: `uuidv5("url", "https://www.terraform.io/")`, want: cty.StringVal("9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5")},
		{name: "uuidv5 bad namespace", expr: `uuidv5("nope", "x")`, wantErr: "Error in function call", wantDetail: "doesn't support namespace"},
		{name: "bcrypt prefix", expr: `substr(bcrypt("pw", 4), 0, 4)`, want: cty.StringVal("$2a$")},
		{name: "bcrypt bad cost", expr: `bcrypt("pw", 99)`, wantErr: "Error in function call", wantDetail: "error occurred generating password"},
	})
}

func TestNetworkFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "cidrhost", expr: `cidrhost("10.12.112.0/20", 16)`, want: cty.StringVal("10.12.112.16")},
		{name: "cidrhost negative", expr: `cidrhost("10.12.112.0/20", -2)`, want: cty.StringVal("10.12.127.254")},
		{name: "cidrhost v6", expr: `cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, want: cty.StringVal("fd00:fd12:3456:7890::22")},
		{name: "cidrhost too big", expr: `cidrhost("10.0.0.0/30", 9)`, wantErr: "Invalid function argument"},
		{name: "cidrhost invalid", expr: `cidrhost("nope", 1)`, wantErr: "Invalid function argument", wantDetail: "invalid CIDR expression"},
		{name: "cidrhost leading zeros", expr: `cidrhost("010.0.0.0/8", 1)`, want: cty.StringVal("10.0.0.1")},
		{name: "cidrnetmask", expr: `cidrnetmask("172.16.0.0/12")`, want: cty.StringVal("255.240.0.0")},
		{name: "cidrnetmask v6", expr: `cidrnetmask("fd00::/8")`, wantErr: "Invalid function argument", wantDetail: "IPv6"},
		{name: "cidrsubnet", expr: `cidrsubnet("172.16.0.0/12", 4, 2)`, want: cty.StringVal("172.18.0.0/16")},
		{name: "cidrsubnet v6", expr: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, want: cty.StringVal("fd00:fd12:3456:7800:a200::/72")},
		{name: "cidrsubnets", expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, want: strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20")},
		{name: "cidrsubnets none", expr: `cidrsubnets("10.1.0.0/16")`, want: cty.ListValEmpty(cty.String)},
		{name: "cidrsubnets overflow", expr: `cidrsubnets("10.0.0.0/30", 1, 1, 1)`, wantErr: "Invalid function argument", wantDetail: "not enough remaining address space"},
		{name: "cidrsubnets too long", expr: `cidrsubnets("10.0.0.0/30", 3)`, wantErr: "Invalid function argument", wantDetail: "too long for an IPv4 address"},
		{name: "cidrcontains ip", expr: `cidrcontains("192.168.2.0/24", "192.168.2.1")`, want: cty.True},
		{name: "cidrcontains prefix", expr: `cidrcontains("192.168.2.0/24", "192.168.2.0/25")`, want: cty.True},
		{name: "cidrcontains outside", expr: `cidrcontains("192.168.2.0/24", "192.168.3.0/25")`, want: cty.False},
	})
}

func TestDateFunctions(t *testing.T) {
	planned := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	runCases(t, Options{PlanTimestamp: planned}, []evalCase{
		{name: "formatdate", expr: `formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`, want: cty.StringVal("02 Jan 2018 23:12 UTC")},
		{name: "timeadd", expr: `timeadd("2017-11-22T00:00:00Z", "10m")`, want: cty.StringVal("2017-11-22T00:10:00Z")},
		{name: "timecmp before", expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00")`, want: cty.NumberIntVal(0)},
		{name: "timecmp after", expr: `timecmp("2018-01-01T00:00:00Z", "2017-11-22T00:00:00Z")`, want: cty.NumberIntVal(1)},
		{name: "timecmp invalid", expr: `timecmp("yesterday", "2017-11-22T00:00:00Z")`, wantErr: "Invalid function argument", wantDetail: "not a valid RFC3339 timestamp"},
		{name: "plantimestamp", expr: `plantimestamp()`, want: cty.StringVal("2024-05-06T07:08:09Z")},
	})
	runCases(t, Options{}, []evalCase{
		{name: "plantimestamp without plan", expr: `plantimestamp()`, want: cty.UnknownVal(cty.String)},
	})
}

// Impure functions give fresh values when applying and unknowns when
// planning, so plans do not show a change on every run.
func TestImpureFunctions(t *testing.T) {
	runCases(t, Options{Pure: true}, []evalCase{
		{name: "timestamp planning", expr: `timestamp()`, want: cty.UnknownVal(cty.String)},
		{name: "uuid planning", expr: `uuid()`, want: cty.UnknownVal(cty.String)},
		{name: "bcrypt planning", expr: `bcrypt("pw")`, want: cty.UnknownVal(cty.String)},
		{name: "pure functions unaffected", expr: `upper("a")`, want: cty.StringVal("A")},
	})
	runCases(t, Options{}, []evalCase{
		{name: "timestamp applying", expr: `can(formatdate("YYYY", timestamp()))`, want: cty.True},
		{name: "uuid applying", expr: `length(uuid())`, want: cty.NumberIntVal(36)},
		{name: "uuid fresh each call", expr: `uuid() != uuid()`, want: cty.True},
	})
}

func TestConversionAndSensitiveFunctions(t *testing.T) {
	runCases(t, Options{}, []evalCase{
		{name: "tostring number", expr: `tostring(5)`, want: cty.StringVal("5")},
		{name: "tostring null", expr: `tostring(null)`, want: cty.NullVal(cty.String)},
		{name: "tostring list", expr: `tostring([1])`, wantErr: "Invalid function argument", wantDetail: "cannot convert tuple to string"},
		{name: "tonumber", expr: `tonumber("1.5")`, want: cty.NumberFloatVal(1.5)},
		{name: "tonumber bad", expr: `tonumber("hello")`, wantErr: "Invalid function argument", wantDetail: `cannot convert "hello" to number`},
		{name: "tonumber bad sensitive", expr: `tonumber(secret)`, wantErr: "Invalid function argument", wantDetail: "cannot convert this sensitive string to number"},
		{name: "tobool", expr: `tobool("true")`, want: cty.True},
		{name: "tobool bad", expr: `tobool("no")`, wantErr: "Invalid function argument", wantDetail: `only the strings "true" or "false" are allowed`},
		{name: "tolist", expr: `tolist(["a", "b"])`, want: strs("a", "b")},
		{name: "tolist unknown tuple", expr: `tolist([unknown_str])`, want: cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)})},
		{name: "tolist of unknown", expr: `tolist(unknown_lst)`, want: cty.UnknownVal(cty.List(cty.String))},
		{name: "toset", expr: `toset(["b", "a", "b"])`, want: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "tomap", expr: `tomap({a = 1})`, want: cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		{name: "tomap of list", expr: `tomap(["a"])`, wantErr: "Invalid function argument", wantDetail: "cannot convert tuple to map of any single type"},
		{name: "tostring keeps sensitivity", expr: `tostring(secret)`, want: cty.StringVal("hunter2").Mark(SensitiveMark)},
		{name: "sensitive", expr: `sensitive("a")`, want: cty.StringVal("a").Mark(SensitiveMark)},
		{name: "sensitive unknown", expr: `sensitive(unknown_str)`, want: cty.UnknownVal(cty.String).Mark(SensitiveMark)},
		{name: "nonsensitive", expr: `nonsensitive(secret)`, want: cty.StringVal("hunter2")},
		{name: "nonsensitive of plain value", expr: `nonsensitive("a")`, want: cty.StringVal("a")},
		{name: "issensitive yes", expr: `issensitive(secret)`, want: cty.True},
		{name: "issensitive no", expr: `issensitive("a")`, want: cty.False},
		{name: "issensitive derived", expr: `issensitive(format("%s!", secret))`, want: cty.True},
		{name: "issensitive null", expr: `issensitive(null)`, want: cty.False},
		{name: "sensitive element propagates", expr: `element(secret_list, 0)`, want: cty.StringVal("a").Mark(SensitiveMark)},
		{name: "try", expr: `try(tonumber("x"), 7)`, want: cty.NumberIntVal(7)},
		{name: "try first ok", expr: `try(tonumber("5"), 7)`, want: cty.NumberIntVal(5)},
		{name: "can", expr: `can(regex("^[a-z]+$", "abc"))`, want: cty.True},
		{name: "can fails", expr: `can(regex("^[a-z]+$", 5 + "x"))`, want: cty.False},
		{name: "can unknown", expr: `can(upper(unknown_str))`, want: cty.UnknownVal(cty.Bool)},
	})
}

func TestFileFunctions(t *testing.T) {
	opts := Options{FS: testFS}
	runCases(t, opts, []evalCase{
		{name: "file", expr: `file("hello.txt")`, want: cty.StringVal("Hello World")},
		{name: "file dot path", expr: `file("./mod/../hello.txt")`, want: cty.StringVal("Hello World")},
		{name: "file missing", expr: `file("nope.txt")`, wantErr: "Invalid function argument", wantDetail: `no file exists at "nope.txt"`},
		{name: "file escapes working dir", expr: `file("../secret")`, wantErr: "Invalid function argument", wantDetail: "no file exists at"},
		{name: "file missing sensitive path", expr: `file(sensitive("nope.txt"))`, wantErr: "Invalid function argument", wantDetail: "no file exists at (sensitive value)"},
		{name: "file not utf8", expr: `file("binary.dat")`, wantErr: "Invalid function argument", wantDetail: "use the filebase64 function"},
		{name: "file unknown path", expr: `file(unknown_str)`, want: cty.UnknownVal(cty.String)},
		{name: "file sensitive path", expr: `file(sensitive("hello.txt"))`, want: cty.StringVal("Hello World").Mark(SensitiveMark)},
		{name: "file null", expr: `file(null)`, wantErr: "Invalid function argument", wantDetail: "must not be null"},
		{name: "filebase64", expr: `filebase64("binary.dat")`, want: cty.StringVal("//4A")},
		{name: "fileexists yes", expr: `fileexists("hello.txt")`, want: cty.True},
		{name: "fileexists no", expr: `fileexists("nope.txt")`, want: cty.False},
		{name: "fileexists directory", expr: `fileexists("mod")`, wantErr: "Invalid function argument", wantDetail: "is not a regular file"},
		{name: "filemd5", expr: `filemd5("hello.txt")`, want: cty.StringVal("b10a8db164e0754105b7a99be72e3fe5")},
		{name: "filesha1", expr: `filesha1("hello.txt")`, want: cty.StringVal("0a4d55a8d778e5022fab701977c5d840bbc486d0")},
		{name: "filesha256", expr: `filesha256("hello.txt")`, want: cty.StringVal("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e")},
		{name: "filesha512 matches sha512", expr: `filesha512("hello.txt") == sha512("Hello World")`, want: cty.True},
		{name: "filebase64sha256", expr: `filebase64sha256("hello.txt") == base64sha256("Hello World")`, want: cty.True},
		{name: "filebase64sha512", expr: `filebase64sha512("hello.txt") == base64sha512("Hello World")`, want: cty.True},
		{name: "filemd5 missing", expr: `filemd5("nope")`, wantErr: "Invalid function argument", wantDetail: `no file exists at "nope"`},
		{name: "fileset flat", expr: `fileset("set", "*.txt")`, want: cty.SetVal([]cty.Value{cty.StringVal("a.txt")})},
		{name: "fileset recursive", expr: `fileset("set", "**/*.txt")`, want: cty.SetVal([]cty.Value{
			cty.StringVal("a.txt"), cty.StringVal(".hidden/f.txt"), cty.StringVal("sub/c.txt"),
			cty.StringVal("sub/deep/d.txt"), cty.StringVal("sub/deep/x/y.txt"),
		})},
		{name: "fileset middle doublestar", expr: `fileset("set", "sub/**/d.txt")`, want: cty.SetVal([]cty.Value{cty.StringVal("sub/deep/d.txt")})},
		{name: "fileset braces", expr: `fileset("set", "*.{md,json}")`, want: cty.SetVal([]cty.Value{cty.StringVal("b.md")})},
		{name: "fileset nested braces", expr: `fileset("set", "{other/*.json,sub/c.txt}")`, want: cty.SetVal([]cty.Value{cty.StringVal("other/e.json"), cty.StringVal("sub/c.txt")})},
		{name: "fileset root", expr: `fileset(".", "*.txt")`, want: cty.SetVal([]cty.Value{cty.StringVal("hello.txt")})},
		{name: "fileset no match", expr: `fileset("set", "*.go")`, want: cty.SetValEmpty(cty.String)},
		{name: "fileset missing dir", expr: `fileset("nowhere", "*")`, want: cty.SetValEmpty(cty.String)},
		{name: "fileset bad pattern", expr: `fileset("set", "[")`, wantErr: "Invalid function argument", wantDetail: "failed to glob pattern"},
		{name: "templatefile", expr: `templatefile("tmpl/greet.tmpl", {name = "Ada"})`, want: cty.StringVal("Hello, Ada!")},
		{name: "templatefile raw value", expr: `templatefile("tmpl/list.tmpl", {items = ["a"]})`, want: cty.TupleVal([]cty.Value{cty.StringVal("a")})},
		{name: "templatefile functions and loops", expr: `templatefile("tmpl/loop.tmpl", {items = ["a", "b"]})`, want: cty.StringVal("[A][B]")},
		{name: "templatefile unknown var", expr: `templatefile("tmpl/greet.tmpl", {name = unknown_str})`, want: cty.UnknownVal(cty.String)},
		{name: "templatefile sensitive var", expr: `templatefile("tmpl/greet.tmpl", {name = secret})`, want: cty.StringVal("Hello, hunter2!").Mark(SensitiveMark)},
		{name: "templatefile missing var", expr: `templatefile("tmpl/missing.tmpl", {})`, wantErr: "Invalid function argument", wantDetail: `vars map does not contain key "nosuch", referenced at tmpl/missing.tmpl:2,3-9`},
		{name: "templatefile syntax error", expr: `templatefile("tmpl/syntax.tmpl", {})`, wantErr: "Error in function call", wantDetail: "tmpl/syntax.tmpl:3,1"},
		{name: "templatefile evaluation error", expr: `templatefile("tmpl/badcall.tmpl", {})`, wantErr: "Error in function call", wantDetail: "tmpl/badcall.tmpl:2,11"},
		{name: "templatefile recursion", expr: `templatefile("tmpl/recurse.tmpl", {})`, wantErr: "Error in function call", wantDetail: "cannot recursively call templatefile"},
		{name: "templatefile missing file", expr: `templatefile("nope.tmpl", {})`, wantErr: "Invalid function argument", wantDetail: `no file exists at "nope.tmpl"`},
		{name: "templatefile bad vars", expr: `templatefile("tmpl/greet.tmpl", "x")`, wantErr: "Invalid function argument", wantDetail: "must be a map"},
		{name: "templatefile bad var name", expr: `templatefile("tmpl/greet.tmpl", {"1st" = 1, name = 2})`, wantErr: "Invalid function argument", wantDetail: "invalid template variable name"},
		{name: "templatestring", expr: `templatestring("Hi $${x}", {x = "y"})`, want: cty.StringVal("Hi y")},
	})
	runCases(t, Options{FS: testFS, BaseDir: "mod"}, []evalCase{
		{name: "base dir", expr: `file("inner.txt")`, want: cty.StringVal("inner")},
	})
}

func TestPathFunctions(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	runCases(t, Options{HostDir: "/work/dir"}, []evalCase{
		{name: "dirname", expr: `dirname("a/b/c.txt")`, want: cty.StringVal("a/b")},
		{name: "basename", expr: `basename("a/b/c.txt")`, want: cty.StringVal("c.txt")},
		{name: "pathexpand", expr: `pathexpand("~/x")`, want: cty.StringVal("/home/ada/x")},
		{name: "pathexpand plain", expr: `pathexpand("/x")`, want: cty.StringVal("/x")},
		{name: "pathexpand other user", expr: `pathexpand("~bob/x")`, wantErr: "Error in function call", wantDetail: "cannot expand user-specific home dir"},
		{name: "abspath", expr: `abspath("a/../b")`, want: cty.StringVal("/work/dir/b")},
		{name: "abspath absolute", expr: `abspath("/x/y")`, want: cty.StringVal("/x/y")},
	})
}

// Every function must answer a typed unknown (or a known value) when any
// argument is unknown, never an error: plans are made with unknowns.
func TestUnknownArgumentsNeverError(t *testing.T) {
	table := Table(Options{FS: testFS})
	for name, fn := range table {
		if strings.HasPrefix(name, CoreNamespace) {
			continue // the same functions as their plain names
		}
		t.Run(name, func(t *testing.T) {
			params := fn.Params()
			args := make([]cty.Value, len(params))
			for i, p := range params {
				args[i] = cty.UnknownVal(p.Type)
			}
			if fn.VarParam() != nil && len(args) == 0 {
				args = append(args, cty.UnknownVal(fn.VarParam().Type))
			}
			if name == "try" || name == "can" {
				// They take unevaluated expressions, not values.
				return
			}
			if name == "templatefile" || name == "templatestring" {
				// Their inner stand-ins refuse everything; the outer
				// ones must not.
				args[1] = cty.DynamicVal
			}
			got, err := fn.Call(args)
			if err != nil {
				if len(args) == 0 {
					return
				}
				t.Fatalf("%s with unknown arguments: %s", name, err)
			}
			if len(args) > 0 && got.IsWhollyKnown() && !knownDespiteUnknown[name] {
				t.Errorf("%s with unknown arguments returned known %#v", name, got)
			}
		})
	}
}

// These answer from types alone or ignore unknown-ness by design.
var knownDespiteUnknown = map[string]bool{
	"issensitive": true, // asks about marks, which unknowns carry too
}

func TestTemplateFunctionsUnavailableInsideTemplates(t *testing.T) {
	_, diags := evalExpr(t, `templatestring("$${templatestring(\"x\", {})}", {})`, Options{})
	if !diags.HasErrors() || !strings.Contains(diags[0].Detail, "cannot recursively call templatestring") {
		t.Fatalf("want recursion error, got %v", diags)
	}
}

// Every built-in answers to its core:: name too, as in OpenTofu 1.10,
// with the same result; an unknown core:: name is still unknown, and
// templates cannot reach the template functions through core:: either.
func TestCoreNamespace(t *testing.T) {
	runCases(t, Options{FS: testFS}, []evalCase{
		{name: "abs", expr: `core::abs(-1)`, want: cty.NumberIntVal(1)},
		{name: "upper", expr: `core::upper("a")`, want: cty.StringVal("A")},
		{name: "mixed", expr: `core::max(abs(-4), core::length([1, 2]))`, want: cty.NumberIntVal(4)},
		{name: "try", expr: `core::try(core::tonumber("x"), 7)`, want: cty.NumberIntVal(7)},
		{name: "file function", expr: `core::fileexists("set/a.txt") == fileexists("set/a.txt")`, want: cty.True},
		{name: "inside a template", expr: `templatestring("$${core::lower(\"AB\")}", {})`, want: cty.StringVal("ab")},
		{name: "unknown name", expr: `core::nosuch(1)`, wantErr: "Call to unknown function"},
		{name: "no recursion", expr: `templatestring("$${core::templatestring(\"x\", {})}", {})`,
			wantErr: "Error in function call", wantDetail: "cannot recursively call templatestring"},
	})
	table := Table(Options{})
	for name := range table {
		if strings.HasPrefix(name, CoreNamespace) {
			continue
		}
		if _, ok := table[CoreNamespace+name]; !ok {
			t.Errorf("%s has no %s%s", name, CoreNamespace, name)
		}
	}
}

func TestTableIsFreshPerCall(t *testing.T) {
	a := Table(Options{})
	delete(a, "upper")
	if _, ok := Table(Options{})["upper"]; !ok {
		t.Fatal("deleting from one table changed another")
	}
}

func FuzzFilesetGlob(f *testing.F) {
	for _, seed := range []string{"*.txt", "**/*.txt", "{a,b}/*", "sub/**/d.txt", "[", "{", "a{b,{c,d}}e"} {
		f.Add(seed)
	}
	fn := Table(Options{FS: testFS})["fileset"]
	f.Fuzz(func(t *testing.T, pattern string) {
		got, err := fn.Call([]cty.Value{cty.StringVal("set"), cty.StringVal(pattern)})
		if err != nil {
			return
		}
		for it := got.ElementIterator(); it.Next(); {
			_, v := it.Element()
			name := "set/" + v.AsString()
			if _, ok := testFS[name]; !ok {
				t.Fatalf("pattern %q matched %q, which is not a file", pattern, name)
			}
		}
	})
}

// The language's whole function surface (OpenTofu 1.10, excluding
// provider-namespaced functions): a missing name would be "Call to unknown
// function" for a configuration OpenTofu accepts.
func TestTableHasLanguageFunctions(t *testing.T) {
	names := strings.Fields(`abs abspath alltrue anytrue base64decode base64encode base64gunzip
		base64gzip base64sha256 base64sha512 basename bcrypt can ceil chomp chunklist cidrcontains
		cidrhost cidrnetmask cidrsubnet cidrsubnets coalesce coalescelist compact concat contains
		csvdecode dirname distinct element endswith file filebase64 filebase64sha256
		filebase64sha512 fileexists filemd5 fileset filesha1 filesha256 filesha512 flatten floor
		format formatdate formatlist indent index issensitive join jsondecode jsonencode keys
		length log lookup lower matchkeys max md5 merge min nonsensitive one parseint pathexpand
		plantimestamp pow range regex regexall replace reverse rsadecrypt sensitive setintersection
		setproduct setsubtract setunion sha1 sha256 sha512 signum slice sort split startswith
		strcontains strrev substr sum templatefile templatestring textdecodebase64 textencodebase64
		timeadd timecmp timestamp title tobool tolist tomap tonumber toset tostring transpose trim
		trimprefix trimspace trimsuffix try upper urldecode urlencode uuid uuidv5 values yamldecode
		yamlencode zipmap`)
	table := Table(Options{})
	var missing []string
	for _, name := range names {
		if _, ok := table[name]; !ok {
			missing = append(missing, name)
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("missing functions (-want +got):\n%s", diff)
	}
}

func BenchmarkTable(b *testing.B) {
	for b.Loop() {
		Table(Options{FS: testFS})
	}
}
