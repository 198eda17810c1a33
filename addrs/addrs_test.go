package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTargetRoundTrip(t *testing.T) {
	tests := map[string]string{
		"terraform_data.a":                                           "AbsResource",
		"terraform_data.a[0]":                                        "AbsResourceInstance",
		`terraform_data.a["k"]`:                                      "AbsResourceInstance",
		`terraform_data.a["with \"quote\""]`:                         "AbsResourceInstance",
		"data.terraform_remote_state.x":                              "AbsResource",
		"module.m":                                                   "ModuleInstance",
		`module.m[1].module.n["x"]`:                                  "ModuleInstance",
		`module.m[1].module.n["x"].terraform_data.b`:                 "AbsResource",
		`module.m[1].module.n["x"].data.terraform_remote_state.b[2]`: "AbsResourceInstance",
	}
	for in, kind := range tests {
		t.Run(in, func(t *testing.T) {
			tgt, diags := ParseTargetStr(in)
			if diags.HasErrors() {
				t.Fatalf("unexpected error: %s", diags.Error())
			}
			gotKind := ""
			switch tgt.Subject.(type) {
			case AbsResource:
				gotKind = "AbsResource"
			case AbsResourceInstance:
				gotKind = "AbsResourceInstance"
			case ModuleInstance:
				gotKind = "ModuleInstance"
			}
			if gotKind != kind {
				t.Errorf("kind = %s, want %s", gotKind, kind)
			}
			if got := tgt.Subject.String(); got != in {
				t.Errorf("round trip: got %s", got)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "terraform_data", "module", "module.m.", "terraform_data.a[0].b", `a.b[true]`, "a.b[1.5]", "1abc"} {
		t.Run(in, func(t *testing.T) {
			if _, diags := ParseTargetStr(in); !diags.HasErrors() {
				t.Errorf("expected an error for %q", in)
			}
		})
	}
}

func TestInstanceOrdering(t *testing.T) {
	in := []string{`b.x["b"]`, `b.x[10]`, `b.x[2]`, `b.x`, `a.x`, `module.m.a.x`, `data.z.y`}
	want := []string{`data.z.y`, `a.x`, `b.x`, `b.x[2]`, `b.x[10]`, `b.x["b"]`, `module.m.a.x`}
	var addrs []AbsResourceInstance
	for _, s := range in {
		a, diags := ParseAbsResourceInstanceStr(s)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		addrs = append(addrs, a)
	}
	for i := range addrs {
		for j := i + 1; j < len(addrs); j++ {
			if addrs[j].Less(addrs[i]) {
				addrs[i], addrs[j] = addrs[j], addrs[i]
			}
		}
	}
	var got []string
	for _, a := range addrs {
		got = append(got, a.String())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

func TestProviderConfigRoundTrip(t *testing.T) {
	for _, s := range []string{
		`provider["terraform.io/builtin/terraform"]`,
		`provider["registry.opentofu.org/hashicorp/random"].alt`,
		`module.a.module.b.provider["registry.opentofu.org/hashicorp/local"]`,
	} {
		p, err := ParseAbsProviderConfigStr(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := p.String(); got != s {
			t.Errorf("got %s, want %s", got, s)
		}
	}
}

func TestResourceModeRoundTrip(t *testing.T) {
	for _, m := range []ResourceMode{ManagedResourceMode, DataResourceMode} {
		if got := ParseResourceMode(m.String()); got != m {
			t.Errorf("%s parses as %v", m, got)
		}
	}
	for _, s := range []string{"", "invalid", "Managed", "resource"} {
		if got := ParseResourceMode(s); got != InvalidResourceMode {
			t.Errorf("%q parses as %v, want InvalidResourceMode", s, got)
		}
	}
}

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"a.b", `module.m[0].a.b["k"]`, "data.x.y[3]", "module.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tgt, diags := ParseTargetStr(s)
		if diags.HasErrors() {
			return
		}
		again, diags := ParseTargetStr(tgt.Subject.String())
		if diags.HasErrors() {
			t.Fatalf("%q -> %q does not parse: %s", s, tgt.Subject.String(), diags.Error())
		}
		if again.Subject.String() != tgt.Subject.String() {
			t.Fatalf("round trip changed %q to %q", tgt.Subject.String(), again.Subject.String())
		}
	})
}
