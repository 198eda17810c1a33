package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/addrs/addrstest"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statetest"
)

// scenarios is the repo's copy of the conformance scenarios recorded from
// OpenTofu; their state files are real-world inputs for the reader.
const scenarios = "../../testdata/conformance/scenarios"

func scenarioStateFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"*/steps/*/state.json", "*/steps/*/*.tfstate"} {
		m, _ := filepath.Glob(filepath.Join(scenarios, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no state files under %s: the conformance scenarios are missing", scenarios)
	}
	return files
}

// semantic decodes JSON into plain values; a null check_results equals an
// absent one, as both mean "no checks recorded".
func semantic(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON: %s", err)
	}
	if v["check_results"] == nil {
		delete(v, "check_results")
	}
	return v
}

func TestScenarioStatesRoundTrip(t *testing.T) {
	for _, path := range scenarioStateFiles(t) {
		t.Run(strings.TrimPrefix(path, scenarios+"/"), func(t *testing.T) {
			src, out := rewrite(t, path)
			if d := cmp.Diff(semantic(t, src), semantic(t, out)); d != "" {
				t.Errorf("round trip changed the content (-read +written):\n%s", d)
			}
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("re-read: %s", err)
			}
			out2, _ := Marshal(again)
			if !bytes.Equal(out, out2) {
				t.Errorf("second write differs:\n%s\n%s", out, out2)
			}
		})
	}
}

// parseFile reads and parses the state file at path.
func parseFile(t *testing.T, path string) (*File, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(src)
	if err != nil {
		t.Fatalf("read: %s", err)
	}
	return f, src
}

// rewrite reads the state file at path and writes it again, returning
// what it read and what it wrote.
func rewrite(t *testing.T, path string) (src, out []byte) {
	t.Helper()
	f, src := parseFile(t, path)
	out, err := Marshal(f)
	if err != nil {
		t.Fatalf("write: %s", err)
	}
	return src, out
}

func TestCompactFileIsByteIdentical(t *testing.T) {
	src, out := rewrite(t, "testdata/full.tfstate")
	if d := cmp.Diff(string(src), string(out)); d != "" {
		t.Errorf("write differs from the original (-orig +written):\n%s", d)
	}
}

func TestReadContent(t *testing.T) {
	f, _ := parseFile(t, "testdata/full.tfstate")
	if f.Serial != 7 || f.Lineage != "3f1c2a9e-5b7d-4e21-9a0c-1d2e3f405162" || f.TerraformVersion != "1.10.6" {
		t.Errorf("metadata = %d %s %s", f.Serial, f.Lineage, f.TerraformVersion)
	}
	a2 := mustInstance(t, "terraform_data.a[2]")
	is := f.State.ResourceInstance(a2)
	if is == nil || is.Current == nil || is.Current.Status != state.ObjectTainted || !is.Current.CreateBeforeDestroy {
		t.Fatalf("terraform_data.a[2] current = %+v", is)
	}
	if string(is.Current.Private) != `{"schema_version":"1"}` {
		t.Errorf("private = %q", is.Current.Private)
	}
	if is.Deposed["0badf00d"] == nil {
		t.Errorf("deposed object missing: %+v", is.Deposed)
	}
	a0 := f.State.ResourceInstanceObject(mustInstance(t, "terraform_data.a[0]"), state.NotDeposed)
	wantPaths := []cty.Path{
		cty.GetAttrPath("input").Index(cty.StringVal("pw")),
		cty.GetAttrPath("input").GetAttr("list").Index(cty.NumberIntVal(1)),
	}
	if len(a0.SensitivePaths) != 2 || !a0.SensitivePaths[0].Equals(wantPaths[0]) || !a0.SensitivePaths[1].Equals(wantPaths[1]) {
		t.Errorf("sensitive paths = %#v", a0.SensitivePaths)
	}
	if len(a0.Dependencies) != 2 || a0.Dependencies[1].String() != "module.m.terraform_data.b" {
		t.Errorf("dependencies = %v", a0.Dependencies)
	}
	if r := f.State.Resource(mustInstance(t, "time_static.t").ContainingResource()); r == nil || r.ProviderConfig.Alias != "alt" {
		t.Errorf("time_static.t provider = %+v", r)
	}
	if o := f.State.Outputs["secret"]; o == nil || !o.Sensitive || o.Value.AsString() != "s3cr<t" {
		t.Errorf("output secret = %+v", o)
	}
	if len(f.State.CheckResults) == 0 {
		t.Errorf("check results dropped")
	}
}

var mustInstance = addrstest.Instance

func TestEmptyInputIsNoState(t *testing.T) {
	for _, in := range []string{"", "\n", "  \t\n"} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrNoState) {
			t.Errorf("Parse(%q) error = %v, want ErrNoState", in, err)
		}
	}
}

const okProvider = `"provider":"provider[\"terraform.io/builtin/terraform\"]"`

func resourceDoc(resourceFields, instances string) string {
	return `{"version":4,"serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"terraform_data","name":"a",` +
		resourceFields + `"instances":[` + instances + `]}]}`
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the error message
	}{
		{"future version", `{"version":5,"serial":1}`, []string{"Unsupported state file format", "version 5"}},
		{"old version", `{"version":3}`, []string{"Unsupported state file format", "version 3"}},
		{"no version", `{"serial":1}`, []string{`"version"`}},
		{"invalid JSON", "{\"version\":4,\n\"serial\":1,,}", []string{"malformed", "line 2, column 12"}},
		{"truncated", "{\"version\":4,\n\"resources\":[", []string{"line 2"}},
		{"wrong type", "{\"version\":4,\n\"serial\":\"x\"}", []string{"line 2", "serial"}},
		{"bad status", resourceDoc(okProvider+",", `{"status":"planned","schema_version":0,"attributes":{}}`),
			[]string{"terraform_data.a", `invalid status "planned"`}},
		{"short deposed key", resourceDoc(okProvider+",", `{"deposed":"abc","schema_version":0,"attributes":{}}`),
			[]string{"terraform_data.a", `deposed key "abc"`}},
		{"duplicate current", resourceDoc(okProvider+",", `{"index_key":1,"schema_version":0,"attributes":{}},{"index_key":1,"schema_version":0,"attributes":{}}`),
			[]string{"terraform_data.a[1]", "more than one current object"}},
		{"duplicate deposed", resourceDoc(okProvider+",", `{"deposed":"00000001","schema_version":0,"attributes":{}},{"deposed":"00000001","schema_version":0,"attributes":{}}`),
			[]string{"terraform_data.a", "deposed object 00000001 more than once"}},
		{"bad mode", strings.Replace(resourceDoc(okProvider+",", ""), `"managed"`, `"other"`, 1), []string{`mode "other"`}},
		{"bad module", strings.Replace(resourceDoc(okProvider+",", ""), `{"mode"`, `{"module":"module.","mode"`, 1), []string{"invalid module address"}},
		{"bad name", strings.Replace(resourceDoc(okProvider+",", ""), `"name":"a"`, `"name":"a b"`, 1), []string{"valid identifiers"}},
		{"bad provider", resourceDoc(`"provider":"aws",`, ""), []string{"terraform_data.a", "provider"}},
		{"missing provider", resourceDoc("", ""), []string{"terraform_data.a", `no "provider"`}},
		{"bad index key", resourceDoc(okProvider+",", `{"index_key":1.5,"schema_version":0}`), []string{"terraform_data.a", "index_key 1.5"}},
		{"bad dependency", resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{},"dependencies":["nope"]}`), []string{"terraform_data.a", `dependency "nope"`}},
		{"bad sensitive path", resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"splat"}]]}`), []string{"terraform_data.a", `"splat"`}},
		{"legacy flatmap", resourceDoc(okProvider+",", `{"schema_version":0,"attributes_flat":{"id":"x"}}`), []string{"terraform_data.a", "attributes_flat"}},
		{"bad output type", `{"version":4,"outputs":{"o":{"value":1,"type":"strong"}}}`, []string{`output "o"`}},
		{"output value mismatch", `{"version":4,"outputs":{"o":{"value":{},"type":"string"}}}`, []string{`output "o"`}},
		{"trailing content", `{"version":4} {}`, []string{"line 1, column 15"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.src))
			if err == nil {
				t.Fatalf("no error; got %+v", f)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestWriteSortsAndOmits(t *testing.T) {
	s := state.NewState()
	prov, obj := statetest.Provider, statetest.Object
	b := obj("b")
	b.Dependencies = []addrs.ConfigResource{
		{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "z", Name: "z"}},
		{Resource: addrs.Resource{Mode: addrs.DataResourceMode, Type: "d", Name: "d"}},
	}
	s.SetResourceInstanceCurrent(mustInstance(t, "terraform_data.b"), b, prov)
	s.SetResourceInstanceCurrent(mustInstance(t, "terraform_data.a[1]"), obj("a1"), prov)
	s.SetResourceInstanceCurrent(mustInstance(t, `terraform_data.a["x"]`), obj("ax"), prov)
	s.SetResourceInstanceCurrent(mustInstance(t, "terraform_data.a[0]"), obj("a0"), prov)
	s.SetOutputValue("o", cty.NumberIntVal(3), false)
	got, err := Marshal(&File{TerraformVersion: "t", Serial: 2, Lineage: "l", State: s})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":4,"terraform_version":"t","serial":2,"lineage":"l","outputs":{"o":{"value":3,"type":"number"}},"resources":[` +
		`{"mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[` +
		`{"index_key":0,"schema_version":0,"attributes":{"id":"a0"},"sensitive_attributes":[]},` +
		`{"index_key":1,"schema_version":0,"attributes":{"id":"a1"},"sensitive_attributes":[]},` +
		`{"index_key":"x","schema_version":0,"attributes":{"id":"ax"},"sensitive_attributes":[]}]},` +
		`{"mode":"managed","type":"terraform_data","name":"b","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[` +
		`{"schema_version":0,"attributes":{"id":"b"},"sensitive_attributes":[],"dependencies":["data.d.d","z.z"]}]}],"check_results":null}` + "\n"
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestWriteRejectsUnsavable(t *testing.T) {
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	tests := map[string]func(s *state.State){
		"unknown output": func(s *state.State) { s.SetOutputValue("o", cty.UnknownVal(cty.String), false) },
		"planned status": func(s *state.State) {
			s.SetResourceInstanceCurrent(mustInstance(t, "a.b"), &state.ObjectSrc{AttrsJSON: []byte(`{}`), Status: 'P'}, prov)
		},
		"invalid attributes": func(s *state.State) {
			s.SetResourceInstanceCurrent(mustInstance(t, "a.b"), &state.ObjectSrc{AttrsJSON: []byte(`{`)}, prov)
		},
	}
	for name, setup := range tests {
		t.Run(name, func(t *testing.T) {
			s := state.NewState()
			setup(s)
			if _, err := Marshal(&File{State: s}); err == nil {
				t.Errorf("no error")
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	if src, err := os.ReadFile("testdata/full.tfstate"); err == nil {
		f.Add(src)
	}
	for _, p := range scenarioStateFiles(f) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte(resourceDoc(okProvider+",", `{"index_key":"k","deposed":"00000001","schema_version":1,"attributes":{"a":[1,{"b":null}]}}`)))
	f.Add([]byte(`{"version":4}`))
	if src, err := Marshal(richState(f)); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		// The fast reader must never accept what encoding/json rejects,
		// nor read anything differently.
		assertSameAsStd(t, src, false)
		file, err := Parse(src)
		if err != nil {
			return
		}
		out, err := Marshal(file)
		if want, wantErr := marshalStd(file); !bytes.Equal(out, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("Marshal differs from the sequential writer: %v, %v\n%s\n%s", err, wantErr, out, want)
		}
		if err != nil {
			// Reading accepts a few things Write refuses (e.g. outputs
			// whose values cty cannot re-encode); they must not panic.
			return
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("written state does not read back: %s\n%s", err, out)
		}
		// Write HTML-escapes <, > and & inside attributes as OpenTofu
		// does, so a file holding them raw reads back with other bytes.
		if !again.State.Equal(file.State) && !needsHTMLEscape(src) {
			t.Fatalf("state changed through a write:\n%s", out)
		}
		out2, err := Marshal(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("write is not stable: %v\n%s\n%s", err, out, out2)
		}
	})
}

func BenchmarkWriteRead100k(b *testing.B) {
	s := state.NewState()
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Absolute(nil)
	for i := range 100_000 {
		s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(i)), &state.ObjectSrc{
			AttrsJSON: []byte(`{"id":"aaaaaaaa-0000-0000-0000-000000000001","input":{"value":"v","type":"string"},"output":{"value":"v","type":"string"},"triggers_replace":null}`),
		}, prov)
	}
	f := &File{Serial: 1, Lineage: "l", State: s}
	for b.Loop() {
		out, err := Marshal(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Parse(out); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNeedsHTMLEscape(t *testing.T) {
	for _, s := range []string{"", `{"a":"b"}`, "<", "a>", "&", "x\u2028", "\u2029y", "\u2027\u202a—", "\xe2\x80", "\xe2"} {
		want := bytes.ContainsAny([]byte(s), "<>&\u2028\u2029")
		if got := needsHTMLEscape([]byte(s)); got != want {
			t.Errorf("needsHTMLEscape(%q) = %v, want %v", s, got, want)
		}
	}
}

// Messages about a broken state file speak the file's terms (no Go type
// names), give the JSON path, and repeat at most a short piece of the
// input however long it is.
func TestReadErrorsAreShortAndInUserTerms(t *testing.T) {
	long := strings.Repeat("9", 1<<20)
	tests := []struct {
		name    string
		src     string
		want    []string
		notWant []string
	}{
		{"huge serial", `{"version":4,"serial":` + long + `}`,
			[]string{`"serial" must be a whole number from 0 to 18446744073709551615`, "(1048576 bytes)"}, nil},
		{"huge version", `{"version":` + long + `}`, []string{`"version" must be a whole number`, "(1048576 bytes)"}, nil},
		{"resources not a list", `{"version":4,"resources":{}}`,
			[]string{`"resources" must be a list, not a JSON object`}, []string{"[]", "statefile."}},
		{"instances not a list", `{"version":4,"resources":[{"instances":"x"}]}`,
			[]string{`"resources.instances" must be a list`}, []string{"statefile."}},
		{"schema_version not a number", resourceDoc(okProvider+",", `{"schema_version":"1"}`),
			[]string{`"resources.instances.schema_version" must be a whole number`}, []string{"uint64"}},
		{"private not base64", resourceDoc(okProvider+",", `{"schema_version":0,"private":5}`),
			[]string{`must be a base64 string`}, []string{"uint8"}},
		{"long mode", strings.Replace(resourceDoc(okProvider+",", ""), `"managed"`, `"`+long+`"`, 1), []string{"(1048576 bytes)"}, nil},
		{"long status", resourceDoc(okProvider+",", `{"status":"`+long+`","schema_version":0}`), []string{"(1048576 bytes)"}, nil},
		{"long provider", resourceDoc(`"provider":"`+long+`",`, ""), []string{"invalid provider address", "(1048576 bytes)"}, nil},
		{"long index key", resourceDoc(okProvider+",", `{"index_key":`+long+`.5,"schema_version":0}`), []string{"index_key", "(1048578 bytes)"}, nil},
		{"sensitive paths not a list", resourceDoc(okProvider+",", `{"schema_version":0,"sensitive_attributes":{}}`),
			[]string{"sensitive_attributes", "list of attribute paths"}, []string{"cty.", "[][]"}},
		{"huge exponent in attributes", resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{"n":9007199E54740993}}`),
			[]string{"terraform_data.a", "9007199E54740993", "too large or too small"}, nil},
		{"tiny exponent in attributes", resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{"n":[1,{"m":-1.5e-20001}]}}`),
			[]string{"terraform_data.a", "-1.5e-20001"}, nil},
		{"huge exponent in an output", `{"version":4,"outputs":{"o":{"value":1E+99999999,"type":"number"}}}`,
			[]string{`output "o"`, "too large or too small"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.src))
			if err == nil {
				t.Fatalf("no error; got %+v", f)
			}
			msg := err.Error()
			if len(msg) > 600 {
				t.Errorf("message of %d bytes; the input is echoed: %.300s", len(msg), msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(msg, w) {
					t.Errorf("error %q mentions %q", msg, w)
				}
			}
		})
	}
}

// Numbers up to the exponent limit still read, and write back as read.
func TestReadKeepsLargeButWritableNumbers(t *testing.T) {
	for _, num := range []string{"1e20000", "-2.5E-20000", "1e+308", "12345678901234567890123", "0e99999999999"} {
		t.Run(num, func(t *testing.T) {
			src := resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{"n":`+num+`}}`)
			f, err := Parse([]byte(src))
			if num == "0e99999999999" {
				// Zero with any exponent is still rejected: the exponent
				// alone decides, which keeps the check a byte scan.
				if err == nil {
					t.Fatalf("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			obj := f.State.ResourceInstanceObject(mustInstance(t, "terraform_data.a"), state.NotDeposed)
			if diff := cmp.Diff(`{"n":`+num+`}`, string(obj.AttrsJSON)); diff != "" {
				t.Error(diff)
			}
		})
	}
}
