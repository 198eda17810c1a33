package planjson

import (
	"bytes"
	"github.com/tenetplan/tenet/engine/plan/plantest"
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
	want, wantErr := decodeReflect(src)
	fast = true
	for _, workers := range []int{1, 2, 5} {
		got, ok := decodeFast(string(src), workers)
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

func TestDecodePlanDocumentMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantFast bool
	}{
		{"empty object", `{}`, true},
		{"flat creates", string(plantest.FlatCreatePlan(3)), true},
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
		{"flat creates", plantest.FlatCreatePlan(3000)},
		{"nested split markers", plantest.NestedMarkerPlan(2000)},
		{"mixed", plantest.MixedPlan(1200)},
		{"changes last", append(bytes.TrimSuffix(plantest.FlatCreatePlan(3000), []byte(`,"errored":false}`)), '}')},
		{"long tail", append(bytes.TrimSuffix(plantest.FlatCreatePlan(3000), []byte(`}`)), []byte(`,"output_changes":{"o":{"actions":["create"],"after":{`+strings.Repeat(`"e":[1],"errored":1,`, 20000)+`"z":0}}}}`)...)},
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
	flat := plantest.FlatCreatePlan(3000)
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
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "cli", "views", "human", "testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded human plans next to the views (%v)", err)
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
	f.Add(plantest.FlatCreatePlan(2))
	f.Add([]byte(`{"resource_changes":[{"address":"a.b[\"\u00e9\"]","index":"k","change":{"actions":["delete","create"],"before":{"x":[1,2.5,{"y":null}]},"replace_paths":[["x",0]],"importing":{"id":"i"}}}],"relevant_attributes":[{"resource":"a","attribute":["x"]}]}`))
	f.Add([]byte(`{"output_changes":{"o":{"actions":["create"],"after":{"a":[null,true,false]},"after_unknown":{"a":[true]}}},"planned_values":{"outputs":{}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkDecodeMatches(t, src)
	})
}

// BenchmarkDecode compares the hand-written reader with encoding/json on a
// plan of 100,000 creates: the reason the hand-written one exists.
func BenchmarkDecode(b *testing.B) {
	doc := plantest.FlatCreatePlan(100_000)
	b.Run("hand-written", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := Decode(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := decodeReflect(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
