package policy

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/internal/regokit"
)

type outcome struct {
	Name      string
	Level     Level
	Status    Status
	Addresses []string
}

func outcomes(r *Report) []outcome {
	var out []outcome
	for _, res := range r.Results {
		o := outcome{Name: res.Name, Level: res.Level, Status: res.Status}
		for _, m := range res.Messages {
			o.Addresses = append(o.Addresses, m.Addresses...)
		}
		out = append(out, o)
	}
	return out
}

func TestExamplesOnPlan(t *testing.T) {
	s, diags := Load(context.Background(), Options{Paths: []string{"../examples/policies"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan, err := os.ReadFile("testdata/aws_plan.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Check(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	want := []outcome{
		{Name: "terraform.blast_radius.warn", Level: Advisory, Status: StatusPass},
		{Name: "terraform.blast_radius.violation", Level: SoftMandatory, Status: StatusPass},
		{Name: "main.deny", Level: HardMandatory, Status: StatusFail},
		{Name: "No replacement of protected addresses", Level: HardMandatory, Status: StatusFail, Addresses: []string{"module.network.aws_vpc.main"}},
		{Name: "Required tags", Level: HardMandatory, Status: StatusFail, Addresses: []string{"aws_s3_bucket.logs"}},
		{Name: "No deletes of stateful resources", Level: SoftMandatory, Status: StatusFail, Addresses: []string{"aws_db_instance.main"}},
	}
	if diff := cmp.Diff(want, outcomes(r)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if !r.Blocked() || r.Overridable() {
		t.Errorf("blocked=%v overridable=%v, want blocked by hard-mandatory failures", r.Blocked(), r.Overridable())
	}
	r.ApplyOverride("change 7", "bob")
	if !r.Blocked() || r.Override == nil || len(r.Override.Policies) != 1 {
		t.Errorf("after override: blocked=%v override=%+v", r.Blocked(), r.Override)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeReport(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outcomes(r), outcomes(back)); diff != "" || back.Override.Reason != "change 7" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLevelsAndMessages(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []outcome
	}{
		{
			"config wins over metadata; warn stays advisory",
			map[string]string{
				"policy-set.yaml": "enforcement:\n  p: advisory\n",
				"p.rego":          "package p\n\n# METADATA\n# custom:\n#   enforcement: hard-mandatory\ndeny contains \"d\" if { true }\n\nwarn contains \"w\" if { true }\n",
			},
			[]outcome{{Name: "p.deny", Level: Advisory, Status: StatusWarn}, {Name: "p.warn", Level: Advisory, Status: StatusWarn}},
		},
		{
			"package metadata and default_enforcement",
			map[string]string{
				"policy-set.yaml": "default_enforcement: soft_mandatory\n",
				"a.rego":          "# METADATA\n# custom:\n#   enforcement: advisory\npackage a\n\nviolation_x contains {\"msg\": \"v\", \"addresses\": [\"b.c\", \"a.b\"]} if { true }\n",
				"b.rego":          "package b\n\ndeny_y := {\"n\"} if { true }\n",
			},
			[]outcome{
				{Name: "a.violation_x", Level: Advisory, Status: StatusWarn, Addresses: []string{"a.b", "b.c"}},
				{Name: "b.deny_y", Level: SoftMandatory, Status: StatusFail},
			},
		},
		{
			"two rules of one name are two policies",
			map[string]string{"m.rego": "package main\n\ndeny[msg] { msg := \"one\" }\n\ndeny[msg] { false; msg := \"two\" }\n"},
			[]outcome{{Name: "main.deny", Level: HardMandatory, Status: StatusFail}, {Name: "main.deny", Level: HardMandatory, Status: StatusPass}},
		},
		{
			"object without msg is an error",
			map[string]string{"m.rego": "package main\n\ndeny contains {\"message\": \"x\"} if { true }\n"},
			[]outcome{{Name: "main.deny", Level: HardMandatory, Status: StatusError}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Load(context.Background(), Options{Paths: []string{writeFiles(t, tt.files)}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			r, err := s.Check(context.Background(), []byte(`{"resource_changes": []}`))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, outcomes(r)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"bad level in metadata", map[string]string{"p.rego": "package p\n\n# METADATA\n# custom:\n#   enforcement: sometimes\ndeny contains 1 if { true }\n"}, "p.rego:3: custom.enforcement is sometimes"},
		{"unknown config key", map[string]string{"policy-set.yaml": "enforce: {}\n"}, "field enforce not found"},
		{"bad capability", map[string]string{"policy-set.yaml": "allow: [disk]\n"}, `"disk" is not a capability`},
		{"conflicting data", map[string]string{"a.json": `{"x": 1}`, "b.yaml": "x: 2\n"}, "sets data.x"},
		{"time is sandboxed", map[string]string{"t.rego": "package t\n\ndeny contains \"late\" if { time.now_ns() > 0 }\n"}, "t.rego:3: time.now_ns reads the wall clock"},
		{"v0 typo shows the v0 error", map[string]string{"t.rego": "package t\n\ndeny[msg] {\n\tmsg := \"x\n}\n"}, "t.rego:4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Load(context.Background(), Options{Paths: []string{writeFiles(t, tt.files)}})
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if !strings.Contains(diags.Error(), tt.want) {
				t.Errorf("diagnostics lack %q: %s", tt.want, diags.Error())
			}
		})
	}
}

func FuzzParseSetConfig(f *testing.F) {
	f.Add([]byte("default_enforcement: advisory\nenforcement:\n  main: soft-mandatory\nallow: [network]\ntimeout: 5s\n"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := ParseSetConfig(src)
		if err != nil {
			return
		}
		for _, l := range cfg.Enforcement {
			if _, ok := ParseLevel(string(l)); !ok {
				t.Fatalf("accepted invalid level %q", l)
			}
		}
	})
}

func FuzzParseRego(f *testing.F) {
	f.Add([]byte("package main\n\ndeny[msg] { msg := \"x\" }\n"))
	f.Add([]byte("package p\n\nimport rego.v1\n\ndeny contains 1 if { true }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := regokit.ParseFile("f.rego", src, 0)
		if err == nil && m == nil {
			t.Fatal("no module and no error")
		}
	})
}
