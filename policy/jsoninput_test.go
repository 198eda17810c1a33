package policy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// sameValue compares two input values strictly: same kinds, same string
// and number texts (Compare treats 1.0 and 1 as equal), same members.
func sameValue(a, b ast.Value) string {
	switch x := a.(type) {
	case ast.Null:
		if _, ok := b.(ast.Null); ok {
			return ""
		}
	case ast.Boolean:
		if y, ok := b.(ast.Boolean); ok && x == y {
			return ""
		}
	case ast.Number:
		if y, ok := b.(ast.Number); ok && x == y {
			return ""
		}
	case ast.String:
		if y, ok := b.(ast.String); ok && x == y {
			return ""
		}
	case *ast.Array:
		y, ok := b.(*ast.Array)
		if !ok || x.Len() != y.Len() {
			break
		}
		for i := range x.Len() {
			if d := sameValue(x.Elem(i).Value, y.Elem(i).Value); d != "" {
				return fmt.Sprintf("[%d]%s", i, d)
			}
		}
		if x.Hash() != y.Hash() {
			return ": array hashes differ"
		}
		return ""
	case ast.Object:
		y, ok := b.(ast.Object)
		if !ok || x.Len() != y.Len() {
			break
		}
		var diff string
		x.Foreach(func(k, v *ast.Term) {
			if diff != "" {
				return
			}
			w := y.Get(k)
			if w == nil {
				diff = fmt.Sprintf(".%v: missing", k)
				return
			}
			if d := sameValue(v.Value, w.Value); d != "" {
				diff = fmt.Sprintf(".%v%s", k, d)
			}
		})
		if diff == "" && x.Hash() != y.Hash() {
			diff = ": object hashes differ"
		}
		return diff
	}
	return fmt.Sprintf(": %T %.80v != %T %.80v", a, a, b, b)
}

// planFiles lists the plan JSON files of the repository, the recorded
// OpenTofu plans of the conformance scenarios included.
func planFiles(t testing.TB) []string {
	var files []string
	for _, root := range []string{"../testdata", "testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 10 {
		t.Fatalf("found only %d plan JSON files", len(files))
	}
	return files
}

// recordedPlans reads the files planFiles lists.
func recordedPlans(t testing.TB) [][]byte {
	var plans [][]byte
	for _, f := range planFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, b)
	}
	return plans
}

// generatedPlan is a show -json document shaped like tenet's with n
// terraform_data changes (the resource changes, planned values and prior
// state each hold all n), with strings that need escaping here and there.
// Most changes are no-ops; every seventh creates, replaces or deletes.
func generatedPlan(n int) []byte { return generatePlan(n, true) }

// generatePlan is generatedPlan, where varied=false makes every change
// a no-op (the plan of an unchanged configuration).
func generatePlan(n int, varied bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format_version":"1.2","terraform_version":"1.10.6","planned_values":{"root_module":{"resources":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":"terraform_data.r[%d]","mode":"managed","type":"terraform_data","name":"r","index":%d,"provider_name":"terraform.io/builtin/terraform","schema_version":0,"values":{"id":"id-%d","input":"x-%d","output":"x-%d","triggers_replace":null},"sensitive_values":{}}`, i, i, i, i, i)
	}
	b.WriteString(`]}},"resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		actions, tags := `["no-op"]`, `null`
		kind := i % 7
		if !varied {
			kind = 0
		}
		switch kind {
		case 1:
			actions, tags = `["create"]`, `{"owner":"me \"q\" \u00e9\ud83d\ude00","n":1.50e3}`
		case 2:
			actions = `["delete","create"]`
		case 3:
			actions = `["delete"]`
		}
		fmt.Fprintf(&b, `{"address":"terraform_data.r[%d]","mode":"managed","type":"terraform_data","name":"r","index":%d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":%s,"before":{"id":"id-%d","input":"x-%d","output":"x-%d","triggers_replace":null},"after":{"id":"id-%d","input":"x-%d","output":"x-%d","triggers_replace":null,"tags":%s},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, i, i, actions, i, i, i, i, i, i, tags)
	}
	b.WriteString(`],"prior_state":{"format_version":"1.0","terraform_version":"1.10.6","values":{"root_module":{"resources":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":"terraform_data.r[%d]","mode":"managed","type":"terraform_data","name":"r","index":%d,"provider_name":"terraform.io/builtin/terraform","schema_version":0,"values":{"id":"id-%d","input":"x-%d","output":"x-%d","triggers_replace":null},"sensitive_values":{}}`, i, i, i, i, i)
	}
	b.WriteString(`]}}},"configuration":{"root_module":{}},"timestamp":"2025-01-01T00:00:00Z","errored":false,"tenet":{"provenance":{}}}`)
	return b.Bytes()
}

// checkSameAsOPA asserts that the fast conversion, when it does not hand
// over, gives exactly ast.ValueFromReader's value, and that inputValue
// always agrees with it (value or error).
func checkSameAsOPA(t *testing.T, src []byte) {
	t.Helper()
	want, wantErr := ast.ValueFromReader(bytes.NewReader(src))
	got, err := inputValue(src, nil)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, OPA's %v", err, wantErr)
	}
	if wantErr != nil {
		return
	}
	if d := sameValue(want, got); d != "" {
		t.Fatalf("value differs from OPA's at input%s", d)
	}
	if fast, err := fastInputValue(src, nil); err == nil {
		if d := sameValue(want, fast); d != "" {
			t.Fatalf("fast value differs from OPA's at input%s", d)
		}
	}
}

func withSmallChunks(t testing.TB) {
	minBytes, chunk := parallelMinBytes, parallelChunk
	parallelMinBytes, parallelChunk = 64, 16
	t.Cleanup(func() { parallelMinBytes, parallelChunk = minBytes, chunk })
}

func TestInputValueMatchesOPAOnPlans(t *testing.T) {
	for _, f := range planFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { checkSameAsOPA(t, src) })
	}
	t.Run("generated 5000", func(t *testing.T) { checkSameAsOPA(t, generatedPlan(5000)) })
	t.Run("generated 300 in tiny chunks", func(t *testing.T) {
		withSmallChunks(t)
		checkSameAsOPA(t, generatedPlan(300))
	})
}

func TestInputValueEdgeCases(t *testing.T) {
	tests := []struct {
		name, src string
		fast      bool // the fast path handles it itself
	}{
		{"empty object", `{}`, true},
		{"nested empties", ` { "a" : [ ] , "b" : { } , "c" : [ [ ] , { } ] } `, true},
		{"duplicate keys: last wins", `{"a":1,"b":2,"a":3}`, true},
		{"many duplicate keys", `{` + manyKeys(100) + `,` + manyKeys(100) + `}`, true},
		{"numbers keep their text", `[0,-0,1.0,1e3,1E+3,-2.50e-7,12345678901234567890123]`, true},
		{"escapes", `["a\"b\\c\/d\b\f\n\r\t", "\u0041\u00e9\u20ac\ud83d\ude00", "<>&"]`, true},
		{"raw unicode", `["héllo wörld 😀"]`, true},
		{"literals", `[true,false,null]`, true},
		{"lone surrogate", `["\ud83d"]`, true},
		{"reversed surrogates", `["\ude00\ud83d"]`, true}, // U+FFFD twice, as encoding/json
		{"invalid UTF-8", "[\"\xff\"]", true},
		{"trailing data", `{"a":1} {"b":2}`, false},
		{"trailing garbage", `{"a":1} x`, false},
		{"not JSON", `{"a":}`, false},
		{"unterminated", `{"a":[1,2`, false},
		{"control character", "[\"a\nb\"]", false},
		{"leading zero", `[01]`, false},
		{"bare dot", `[1.]`, false},
		{"huge exponent", `[1e999999999999]`, false},
		{"empty", ``, false},
		{"deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSameAsOPA(t, []byte(tt.src))
			_, err := fastInputValue([]byte(tt.src), nil)
			if (err == nil) != tt.fast {
				t.Errorf("fast path error %v, want handled=%v", err, tt.fast)
			}
		})
		t.Run(tt.name+" split", func(t *testing.T) {
			withSmallChunks(t)
			checkSameAsOPA(t, []byte(`[`+tt.src+`,`+tt.src+`,"`+strings.Repeat("x", 100)+`"]`))
		})
	}
}

func manyKeys(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	return strings.Join(parts, ",")
}

func TestInputValuePrunesMembers(t *testing.T) {
	src := []byte(`{"resource_changes":[{"a":1}],"prior_state":{"x":[1,2]},"configuration":{}}`)
	keep := &inputShape{members: map[string]*inputShape{"resource_changes": nil}}
	got, err := inputValue(src, keep)
	if err != nil {
		t.Fatal(err)
	}
	want := ast.MustParseTerm(`{"resource_changes":[{"a":1}]}`).Value
	if d := sameValue(want, got); d != "" {
		t.Errorf("pruned input differs at input%s", d)
	}
	// A member left out must still be valid JSON: the check fails closed.
	for _, bad := range []string{`{"resource_changes":[],"prior_state":{"x":}}`, `{"resource_changes":[],"prior_state":"\xff"} x`} {
		if _, err := inputValue([]byte(bad), keep); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// testShape prunes like the example policies: the resource changes keep
// address, type, change.actions and change.after.tags; "a" is kept whole.
var testShape = &inputShape{members: map[string]*inputShape{
	"a": nil,
	"resource_changes": {array: true, elems: &inputShape{members: map[string]*inputShape{
		"address": nil,
		"type":    nil,
		"change": {members: map[string]*inputShape{
			"actions": nil,
			"after":   {members: map[string]*inputShape{"tags": nil}},
		}},
	}}},
}}

// checkPrunedSameAsOPA asserts that the fast parser, when it does not
// hand over, prunes exactly as pruneValue does on OPA's value.
func checkPrunedSameAsOPA(t *testing.T, src []byte, shape *inputShape) {
	t.Helper()
	full, wantErr := ast.ValueFromReader(bytes.NewReader(src))
	got, err := fastInputValue(src, shape)
	if err != nil {
		return
	}
	if wantErr != nil {
		t.Fatalf("fast path accepted what OPA refuses (%v): %q", wantErr, src)
	}
	if d := sameValue(pruneValue(full, shape), got); d != "" {
		t.Fatalf("pruned value differs from OPA's pruned at input%s: %.200q", d, src)
	}
}

func TestInputValuePrunesElements(t *testing.T) {
	src := []byte(`{"resource_changes":[{"address":"a","name":"n","change":{"actions":["create"],"before":{"x":1},"after":{"tags":{"o":1},"x":2}}},` +
		`{"address":"b","change":null},{"change":{"after":[1,2]}},"str",{"change":{"after":{"tags":null,"y":{}}},"address":"c","address":"d"}],"b":1,"a":{"z":[{"q":1}]}}`)
	want := ast.MustParseTerm(`{"resource_changes":[{"address":"a","change":{"actions":["create"],"after":{"tags":{"o":1}}}},` +
		`{"address":"b","change":null},{"change":{"after":[1,2]}},"str",{"change":{"after":{"tags":null}},"address":"d"}],"a":{"z":[{"q":1}]}}`).Value
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprintf("split=%v", split), func(t *testing.T) {
			if split {
				withSmallChunks(t)
			}
			got, err := inputValue(src, testShape)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameValue(want, got); d != "" {
				t.Errorf("pruned input differs at input%s", d)
			}
			checkPrunedSameAsOPA(t, src, testShape)
		})
	}
	// OPA's route (taken when the fast parser hands over) prunes the same.
	full, err := ast.ValueFromReader(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameValue(want, pruneValue(full, testShape)); d != "" {
		t.Errorf("pruned OPA value differs at input%s", d)
	}
	// A member left out of an element must still be valid JSON.
	bad := bytes.Replace(src, []byte(`"name":"n"`), []byte(`"name":}`), 1)
	if _, err := inputValue(bad, testShape); err == nil {
		t.Error("invalid JSON in a pruned member: no error")
	}
}

func TestInputValuePrunedMatchesOPAOnPlans(t *testing.T) {
	for _, f := range planFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { checkPrunedSameAsOPA(t, src, testShape) })
	}
	t.Run("generated 300 in tiny chunks", func(t *testing.T) {
		withSmallChunks(t)
		checkPrunedSameAsOPA(t, generatedPlan(300), testShape)
	})
}

func FuzzInputValue(f *testing.F) {
	f.Add([]byte(`{"resource_changes":[{"address":"a.b","change":{"actions":["create"]}}]}`))
	f.Add([]byte(`["a\"b\u00e9\ud83d\ude00", 1.5e3, -0, true, null, {"k":{"k":[]}}]`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte("[\"\xff\"]"))
	f.Add([]byte(`{"resource_changes":[{"address":"a","x":{"y":[1]},"change":{"after":{"tags":{"a":1},"b":2},"before":null}},null,[1],{"change":[]}],"b":{}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		withSmallChunks(t)
		want, wantErr := ast.ValueFromReader(bytes.NewReader(src))
		checkPrunedSameAsOPA(t, src, testShape)
		got, err := fastInputValue(src, nil)
		if err != nil {
			return
		}
		if wantErr != nil {
			t.Fatalf("fast path accepted what OPA refuses (%v): %q", wantErr, src)
		}
		if d := sameValue(want, got); d != "" {
			t.Fatalf("value differs from OPA's at input%s: %q", d, src)
		}
	})
}

// TestInputValueDeepSkippedMember: a member no policy reads, nested deeper
// than jsontext.MaxDepth, sends the document down OPA's route, which
// gives the same pruned value; nested deeper than encoding/json allows, it
// gets OPA's error, as the fast path must not accept what OPA refuses.
func TestInputValueDeepSkippedMember(t *testing.T) {
	keep := &inputShape{members: map[string]*inputShape{"resource_changes": nil}}
	for _, depth := range []int{jsontext.MaxDepth + 10, 10001} {
		src := []byte(`{"resource_changes":[1],"prior_state":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)
		checkPrunedSameAsOPA(t, src, keep)
		_, wantErr := ast.ValueFromReader(bytes.NewReader(src))
		if _, err := inputValue(src, keep); (err != nil) != (wantErr != nil) {
			t.Errorf("depth %d: inputValue error %v, OPA's %v", depth, err, wantErr)
		}
	}
}
