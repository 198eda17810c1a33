package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// repoConformance holds the project's copy of the recorded scenarios.
const repoConformance = "../../testdata/conformance"

// sampleStateFiles are the state files of the recorded scenarios (the
// repository's copy and the shared one) and this package's fixtures.
func sampleStateFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	var paths []string
	for _, root := range []string{repoConformance, scenarios} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (d.Name() == "state.json" || strings.HasSuffix(d.Name(), ".tfstate")) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	m, _ := filepath.Glob("testdata/*.tfstate")
	paths = append(paths, m...)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = src
	}
	return files
}

// richState has one of everything the format can hold.
func richState(t testing.TB) *File {
	s := state.NewState()
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	alt := prov
	alt.Alias = "alt"
	mod, diags := addrs.ParseModuleInstanceStr(`module.m["k"].module.n[2]`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	dep := func(s string) addrs.ConfigResource {
		r, diags := addrs.ParseAbsResourceStr(s)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return r.Config()
	}
	for i := range 40 {
		res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i%3)}
		var key addrs.InstanceKey = addrs.IntKey(i)
		if i%5 == 0 {
			key = addrs.StringKey(fmt.Sprintf("k<%d>\u00e9\"\\", i))
		}
		m := addrs.RootModuleInstance
		if i%4 == 0 {
			m = mod
		}
		addr := res.Absolute(m).Instance(key)
		obj := &state.ObjectSrc{
			SchemaVersion:       uint64(i % 3),
			AttrsJSON:           []byte(fmt.Sprintf(`{"id":"%d","nested":{"list":[1,2.5,-3e2,true,null],"s":"a\u00e9\n\\\"<&>"}}`, i)),
			Status:              state.ObjectReady,
			CreateBeforeDestroy: i%7 == 0,
		}
		if i%6 == 0 {
			obj.Status = state.ObjectTainted
		}
		if i%3 == 0 {
			obj.Private = []byte(fmt.Sprintf(`{"schema_version":"%d"}`, i))
		}
		if i%2 == 0 {
			obj.Dependencies = []addrs.ConfigResource{dep("data.terraform_remote_state.x"), dep("module.m.terraform_data.y")}
		}
		if i%8 == 0 {
			obj.SensitivePaths = []cty.Path{cty.GetAttrPath("nested").GetAttr("s"), cty.GetAttrPath("nested").GetAttr("list").Index(cty.NumberIntVal(1))}
		}
		p := prov
		if i%3 == 2 {
			p = alt
		}
		s.SetResourceInstanceCurrent(addr, obj, p)
		if i%9 == 0 {
			s.SetResourceInstanceDeposed(addr, state.DeposedKey(fmt.Sprintf("%08x", i)), obj.DeepCopy(), p)
		}
	}
	data := addrs.Resource{Mode: addrs.DataResourceMode, Type: "terraform_remote_state", Name: "x"}.Absolute(nil).Instance(addrs.NoKey)
	s.SetResourceInstanceCurrent(data, &state.ObjectSrc{AttrsJSON: []byte(`{}`), Status: state.ObjectReady}, prov)
	s.SetOutputValue("n", cty.NumberIntVal(3), false)
	s.SetOutputValue("obj", cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.StringVal("x")})}), true)
	s.CheckResults = []byte(`[{"object_kind":"resource","config_addr":"terraform_data.r0","status":"pass","objects":null}]`)
	return &File{TerraformVersion: "1.10.6", Serial: 12, Lineage: "lin", State: s}
}

// assertSameAsStd checks that parseFast reads src (when mustAccept) and
// gives exactly parseStd's File.
func assertSameAsStd(t *testing.T, src []byte, mustAccept bool) {
	t.Helper()
	fast, ok := parseFast(src)
	if !ok {
		if mustAccept {
			t.Fatalf("the fast reader declined a file the standard reader should read")
		}
		return
	}
	std, err := parseStd(src)
	if err != nil {
		t.Fatalf("the fast reader accepted a file the standard reader rejects: %s", err)
	}
	if !reflect.DeepEqual(fast, std) {
		a, _ := Marshal(fast)
		b, _ := Marshal(std)
		t.Fatalf("readers disagree:\nfast: %s\nstd:  %s", a, b)
	}
}

// indent re-encodes src with indentation, as OpenTofu writes state files.
func indent(t testing.TB, src []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, src, "", "  "); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFastReadMatchesStd(t *testing.T) {
	rich, err := Marshal(richState(t))
	if err != nil {
		t.Fatal(err)
	}
	flat, err := Marshal(flatState(3000)) // above the parallel threshold
	if err != nil {
		t.Fatal(err)
	}
	files := sampleStateFiles(t)
	files["rich"] = rich
	files["flat"] = flat
	if len(files) < 6 {
		t.Fatalf("only %d sample state files found", len(files))
	}
	for name, src := range files {
		t.Run(name, func(t *testing.T) {
			assertSameAsStd(t, src, true)
			if std, err := parseStd(src); err != nil || len(std.State.Modules) == 0 {
				t.Fatalf("standard reader: %v", err)
			}
		})
		t.Run(name+"/indented", func(t *testing.T) {
			assertSameAsStd(t, indent(t, src), true)
		})
	}
}

// TestFastReadDeclinesRarities covers valid files outside the fast
// reader's shape: Parse must still read them exactly as parseStd does.
func TestFastReadDeclinesRarities(t *testing.T) {
	inst := `{"schema_version":0,"attributes":{"id":"x"}}`
	tests := map[string]string{
		"duplicate top-level key":     `{"version":4,"serial":1,"serial":2}`,
		"key in upper case":           `{"version":4,"Serial":3}`,
		"escaped key":                 `{"version":4,"seri\u0061l":3}`,
		"null instance":               resourceDoc(okProvider+",", `null`),
		"legacy flat alongside":       resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{"id":"x"},"attributes_flat":{"id":"x"}}`),
		"private as byte array":       resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{},"private":[104,105]}`),
		"resource listed twice":       strings.Replace(resourceDoc(okProvider+",", inst), `]}]}`, `]},{"mode":"managed","type":"terraform_data","name":"a",`+okProvider+`,"instances":[{"index_key":1,"schema_version":0}]}]}`, 1),
		"resource listed again empty": strings.Replace(resourceDoc(okProvider+",", inst), `]}]}`, `]},{"mode":"managed","type":"terraform_data","name":"a",`+okProvider+`,"instances":[]}]}`, 1),
		"version key last":            `{"serial":1,"version":4}`,
		"escaped strings":             resourceDoc(okProvider+",", `{"index_key":"\u0041\n","status":"t\u0061inted","schema_version":0,"attributes":{"id":"\u00e9"},"private":"e30\u003d"}`),
		"number index spellings":      resourceDoc(okProvider+",", `{"index_key":1e1,"schema_version":0},{"index_key":2.0,"schema_version":0}`),
		"nulls everywhere":            `{"version":4,"terraform_version":null,"serial":null,"lineage":null,"outputs":null,"resources":null,"check_results":null}`,
		"unknown fields":              resourceDoc(okProvider+`,"extra":[1,{"a":"b"}],`, `{"schema_version":0,"future":{"x":[]},"attributes":null}`),
		"empty private":               resourceDoc(okProvider+",", `{"schema_version":0,"private":""}`),
		"deep attributes":             resourceDoc(okProvider+",", `{"schema_version":0,"attributes":{"a":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`}}`),
		"whitespace everywhere":       " \n{ \"version\" : 4 ,\r\n\t\"resources\" : [ { \"mode\":\"managed\" , \"type\":\"t\",\"name\":\"n\"," + okProvider + ", \"instances\" : [ { \"attributes\" : { \"a\" : [ 1 , \"x y\" ] } , \"dependencies\" : [ \"t.m\" ] } ] } ] } \n",
		"invalid UTF-8 in strings":    resourceDoc(okProvider+",", "{\"index_key\":\"\xff\",\"schema_version\":0,\"attributes\":{\"a\":\"\xfe\"}}"),
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			want, err := parseStd([]byte(src))
			if err != nil {
				t.Fatalf("standard reader: %s", err)
			}
			got, err := Parse([]byte(src))
			if err != nil {
				t.Fatalf("Parse: %s", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse differs from the standard reader")
			}
			assertSameAsStd(t, []byte(src), false)
		})
	}
}

// TestFastReadRejectsCorruption cuts and damages a valid file in many
// places: every result must be an error or exactly parseStd's File.
func TestFastReadRejectsCorruption(t *testing.T) {
	src, err := Marshal(richState(t))
	if err != nil {
		t.Fatal(err)
	}
	step := max(1, len(src)/400)
	for cut := 0; cut < len(src); cut += step {
		if f, ok := parseFast(src[:cut]); ok {
			t.Fatalf("a file truncated to %d of %d bytes was accepted: %+v", cut, len(src), f)
		}
		for _, c := range []byte{'"', '\\', '{', ']', ',', 0, 'x'} {
			bad := bytes.Clone(src)
			bad[cut] = c
			assertSameAsStd(t, bad, false)
		}
	}
}

func TestMarshalMatchesStd(t *testing.T) {
	files := map[string]*File{"rich": richState(t), "flat": flatState(3000), "empty": {State: state.NewState()}, "nil state": {}}
	for name, src := range sampleStateFiles(t) {
		f, err := parseStd(src)
		if err != nil {
			t.Fatalf("%s: %s", name, err)
		}
		files[name] = f
	}
	// Unsavable states must fail with the same message.
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i, bad := range []*state.ObjectSrc{{AttrsJSON: []byte(`{"a":`)}, {Status: 'P'}, {AttrsJSON: []byte(`{} {}`)}} {
		f := flatState(3000)
		f.State.SetResourceInstanceCurrent(mustInstance(t, fmt.Sprintf("terraform_data.r[%d]", 2000+i)), bad, prov)
		f.State.SetResourceInstanceCurrent(mustInstance(t, fmt.Sprintf("terraform_data.r[%d]", 2500+i)), &state.ObjectSrc{Status: 'X'}, prov)
		files[fmt.Sprintf("bad object %d", i)] = f
	}
	noProvider := flatState(3000)
	noProvider.State.SetResourceInstanceCurrent(mustInstance(t, "terraform_data.z"), &state.ObjectSrc{}, addrs.AbsProviderConfig{})
	files["no provider"] = noProvider
	spaced := richState(t)
	for _, r := range spaced.State.Modules[""].Resources {
		for _, is := range r.Instances {
			is.Current.AttrsJSON = indent(t, is.Current.AttrsJSON)
		}
	}
	files["indented attributes"] = spaced

	for name, f := range files {
		t.Run(name, func(t *testing.T) {
			want, wantErr := marshalStd(f)
			got, err := Marshal(f)
			if (strings.HasPrefix(name, "bad") || name == "no provider") != (wantErr != nil) {
				t.Fatalf("sequential writer error = %v", wantErr)
			}
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("error = %v, want %v", err, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from the sequential writer:\n got %.300s\nwant %.300s", got, want)
			}
		})
	}
}

func TestMarshalHeaderAndState(t *testing.T) {
	for name, f := range map[string]*File{"rich": richState(t), "flat": flatState(3000), "nil state": {Lineage: "x"}} {
		whole, err := Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		body, err := MarshalState(f.State)
		if err != nil {
			t.Fatal(err)
		}
		if got := append(MarshalHeader(f), body...); !bytes.Equal(got, whole) {
			t.Errorf("%s: MarshalHeader+MarshalState differs from Marshal", name)
		}
	}
}

// TestParseErrorsAreStd checks that invalid files get parseStd's error,
// including where only a later part of the file makes it invalid.
func TestParseErrorsAreStd(t *testing.T) {
	inst := `{"schema_version":0,"attributes":{"id":"x"}}`
	otherProvider := `"provider":"provider[\"registry.opentofu.org/hashicorp/null\"]"`
	tests := map[string]string{
		"listed again with another provider, empty": strings.Replace(resourceDoc(okProvider+",", inst), `]}]}`, `]},{"mode":"managed","type":"terraform_data","name":"a",`+otherProvider+`,"instances":[]}]}`, 1),
		"listed again with another provider":        strings.Replace(resourceDoc(okProvider+",", inst), `]}]}`, `]},{"mode":"managed","type":"terraform_data","name":"a",`+otherProvider+`,"instances":[{"index_key":1}]}]}`, 1),
		"instance provider":                         resourceDoc(okProvider+",", `{"provider":"x","schema_version":0}`),
		"attributes not an object":                  resourceDoc(okProvider+",", `{"schema_version":0,"attributes":[1]}`),
		"negative schema version":                   resourceDoc(okProvider+",", `{"schema_version":-1}`),
		"bad private":                               resourceDoc(okProvider+",", `{"schema_version":0,"private":"!!"}`),
		"syntax error after resources":              resourceDoc(okProvider+",", inst) + ` x`,
		"bad check results":                         `{"version":4,"check_results":{}}`,
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, want := parseStd([]byte(src))
			if want == nil {
				t.Fatal("parseStd accepted the file")
			}
			_, err := Parse([]byte(src))
			if fmt.Sprint(err) != want.Error() {
				t.Errorf("error = %v, want %v", err, want)
			}
			if _, ok := parseFast([]byte(src)); ok {
				t.Errorf("the fast reader accepted it")
			}
		})
	}
}

func TestParseDependencyMatchesAddrs(t *testing.T) {
	for _, s := range []string{
		"a.b", "data.a.b", "module.m.a.b", "module.m.data.a.b", "module.data.a.b", "module.module.a.b",
		"module.m.module.n.a_b-c.d", "_x.y", "A.B", "a.b.c", "module", "module.m", "data.a", "a", "",
		"a..b", ".a.b", "a.b.", "a.0", "0a.b", "a[0].b", "module.m[0].a.b", "a.b[1]", "é.b", "a. b",
		"data.data.a", "module.m.data", "a-.b", "-a.b", "true.false", "null.x", "for.in", "module.true.null.if", strings.Repeat("module.m.", 20) + "a.b",
	} {
		t.Run(s, func(t *testing.T) {
			got, ok := parseDependency(s)
			abs, diags := addrs.ParseAbsResourceStr(s)
			if ok != !diags.HasErrors() {
				t.Fatalf("ok = %v; addrs says %v", ok, diags)
			}
			if ok && !reflect.DeepEqual(got, abs.Config()) {
				t.Errorf("= %#v, want %#v", got, abs.Config())
			}
		})
	}
}

func FuzzParseDependency(f *testing.F) {
	for _, s := range []string{"a.b", "module.m.data.a.b", "module.m[0].a.b", "a-b._c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDependency(s)
		abs, diags := addrs.ParseAbsResourceStr(s)
		if ok != !diags.HasErrors() || ok && !reflect.DeepEqual(got, abs.Config()) {
			t.Fatalf("parseDependency(%q) = %#v, %v; addrs gives %#v, %v", s, got, ok, abs.Config(), diags)
		}
	})
}
