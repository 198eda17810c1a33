package views

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// checkDecodeMatches asserts that the hand-written decoder either gives up
// or gives exactly what encoding/json gives, on each worker count.
func checkDecodeMatches(t *testing.T, src []byte) (fast bool) {
	t.Helper()
	want, wantErr := parsePlanDocumentReflect(src)
	fast = true
	for _, workers := range []int{1, 2, 5} {
		got, ok := decodePlanDocument(src, string(src), workers)
		if !ok {
			fast = false
			continue
		}
		if wantErr != nil {
			t.Fatalf("workers=%d: decoded what encoding/json rejects (%v)", workers, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("workers=%d: differs from encoding/json (-want +got):\n%s", workers, diff)
		}
	}
	return fast
}

// nestedMarkerPlan has n changes whose values contain the text that
// separates two changes, so guessed split points are often wrong.
func nestedMarkerPlan(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_drift":[`)
	for i := range n / 3 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"address":"x.d[%d]","mode":"managed","type":"x","name":"d","index":%d,"change":{"actions":["update"],"before":{"v":[{"a":1},{"address":"q"}]},"after":{"v":[{"a":2},{"address":"q"}]},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, i, i)
	}
	b.WriteString(`],"resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"address":"x.r[\"k%d\"]","mode":"managed","type":"x","name":"r","index":"k%d","change":{"actions":["create"],"before":null,"after":{"list":[{"a":%d.5e1},{"address":"}]},{\"address\":\"\u00e9"}],"n":-0.25},"after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{"list":[{},{"address":true}]}}}`, i, i, i)
	}
	b.WriteString(`],"output_changes":{"o":{"actions":["update"],"before":1,"after":2,"after_unknown":false,"before_sensitive":false,"after_sensitive":false}},"relevant_attributes":[{"resource":"x.d[0]","attribute":["v",0]}],"errored":false}`)
	return []byte(b.String())
}

func TestDecodePlanDocumentMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantFast bool
	}{
		{"empty object", `{}`, true},
		{"flat creates", string(flatCreatePlan(3)), true},
		{"escapes", `{"resource_changes":[{"address":"a.b[\"k\\\"\u00e9\ud83d\ude00\/\b\f\n\r\t\"]","change":{"actions":["create"],"after":{"s":"\ud800x\udc00\ud800\u0041"}}}]}`, true},
		{"invalid utf-8", "{\"format_version\":\"\xff\xc3(\xe2\x82\"}", true},
		{"numbers", `{"resource_changes":[{"index":-0,"change":{"after":[0,1.5,-2e10,3E+2,4e-1,12345678901234567890]}}]}`, true},
		{"nulls leave fields empty", `{"format_version":null,"resource_changes":[null,{"address":null,"index":null,"change":{"actions":[null],"replace_paths":[null,[]],"importing":null}}],"output_changes":null,"errored":null}`, true},
		{"empty arrays", `{"resource_drift":[],"resource_changes":[ ],"relevant_attributes":[],"output_changes":{}}`, true},
		{"whitespace", " \n{ \"errored\" : true ,\t\"resource_changes\" : [ { \"change\" : { \"actions\" : [ \"delete\" , \"create\" ] } } ] }\r\n", true},
		{"unknown keys skipped", `{"terraform_version":"1","prior_state":{"a":[1,{"b":null}],"c":"\u0041"},"resource_changes":[{"schema_version":0,"change":{"after_identity":{}}}]}`, true},
		{"planned values", `{"planned_values":{"outputs":{"o":{"sensitive":false,"value":[1]}},"root_module":{}}}`, true},
		{"planned values folded key", `{"planned_values":{"Outputs":{"o":1}}}`, true},
		{"importing", `{"resource_changes":[{"change":{"actions":["no-op"],"importing":{"id":"i-1","unknown":1}}}]}`, true},
		{"trailing data ignored", `{"errored":true} garbage`, true},
		{"duplicate output key", `{"output_changes":{"o":{"before":1},"o":{"after":2}}}`, true},
		{"duplicate generic key", `{"resource_changes":[{"change":{"after":{"a":1,"a":2}}}]}`, true},

		{"duplicate field", `{"errored":true,"errored":false}`, false},
		{"case-folded field", `{"Errored":true}`, false},
		{"non-ascii key", `{"ſtuff":1}`, false},
		{"type mismatch", `{"errored":"yes"}`, false},
		{"actions not strings", `{"resource_changes":[{"change":{"actions":[1]}}]}`, false},
		{"truncated", `{"resource_changes":[{"address":"a"`, false},
		{"trailing comma", `{"resource_changes":[{},]}`, false},
		{"bad number", `{"resource_changes":[{"index":01}]}`, false},
		{"bad escape", `{"format_version":"\x"}`, false},
		{"control character", "{\"format_version\":\"a\nb\"}", false},
		{"not an object", `[]`, false},
		{"null document", `null`, false},
		{"empty input", ``, false},
		{"deep nesting", `{"resource_changes":[{"change":{"after":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fast := checkDecodeMatches(t, []byte(tt.src)); fast != tt.wantFast {
				t.Errorf("decoded without encoding/json = %v, want %v", fast, tt.wantFast)
			}
		})
	}
}

func TestDecodePlanDocumentLargeMatches(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  []byte
	}{
		{"flat creates", flatCreatePlan(3000)},
		{"nested split markers", nestedMarkerPlan(2000)},
		{"mixed", mixedPlan(1200)},
		{"changes last", append(bytes.TrimSuffix(flatCreatePlan(3000), []byte(`,"errored":false}`)), '}')},
		{"long tail", append(bytes.TrimSuffix(flatCreatePlan(3000), []byte(`}`)), []byte(`,"output_changes":{"o":{"actions":["create"],"after":{`+strings.Repeat(`"e":[1],"errored":1,`, 20000)+`"z":0}}}}`)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.src) < 2*parallelDecodeBytes {
				t.Fatalf("document of %d bytes is too small to be decoded in parallel", len(tt.src))
			}
			if !checkDecodeMatches(t, tt.src) {
				t.Error("left to encoding/json")
			}
		})
	}
}

func TestDecodePlanDocumentLargeEdges(t *testing.T) {
	flat := flatCreatePlan(3000)
	tests := []struct {
		name     string
		src      []byte
		wantFast bool
	}{
		{"syntax error mid-array", bytes.Replace(flat, []byte(`"index":1500,`), []byte(`"index":1500,,`), 1), false},
		{"type error mid-array", bytes.Replace(flat, []byte(`"index":2999,`), []byte(`"index":2999,"mode":7,`), 1), false},
		{"truncated mid-array", flat[:len(flat)/2], false},
		{"empty array before a large value", []byte(`{"resource_changes":[ ],"planned_values":{"outputs":{"o":"` + strings.Repeat("x", 2*parallelDecodeBytes) + `"}}}`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fast := checkDecodeMatches(t, tt.src); fast != tt.wantFast {
				t.Errorf("decoded without encoding/json = %v, want %v", fast, tt.wantFast)
			}
		})
	}
}

func TestDecodePlanDocumentGoldenFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "plan.json" {
				t.Run(filepath.Base(file), func(t *testing.T) {
					if !checkDecodeMatches(t, f.Data) {
						t.Error("left to encoding/json")
					}
				})
			}
		}
	}
}

func FuzzDecodePlanDocument(f *testing.F) {
	f.Add(flatCreatePlan(2))
	f.Add([]byte(`{"resource_changes":[{"address":"a.b[\"\u00e9\"]","index":"k","change":{"actions":["delete","create"],"before":{"x":[1,2.5,{"y":null}]},"replace_paths":[["x",0]],"importing":{"id":"i"}}}],"relevant_attributes":[{"resource":"a","attribute":["x"]}]}`))
	f.Add([]byte(`{"output_changes":{"o":{"actions":["create"],"after":{"a":[null,true,false]},"after_unknown":{"a":[true]}}},"planned_values":{"outputs":{}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkDecodeMatches(t, src)
	})
}
