package addrs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseProviderSource(t *testing.T) {
	tests := map[string]struct {
		want    Provider
		wantErr string
	}{
		"time":                                {want: Provider{"registry.opentofu.org", "hashicorp", "time"}},
		"Hashicorp/Time":                      {want: Provider{"registry.opentofu.org", "hashicorp", "time"}},
		"integrations/github":                 {want: Provider{"registry.opentofu.org", "integrations", "github"}},
		"registry.terraform.io/hashicorp/aws": {want: Provider{"registry.terraform.io", "hashicorp", "aws"}},
		"Example.COM:443/acme/widget":         {want: Provider{"example.com", "acme", "widget"}},
		"example.com:8443/acme/widget":        {want: Provider{"example.com:8443", "acme", "widget"}},
		"-/aws":                               {want: Provider{"registry.opentofu.org", "-", "aws"}},
		"registry.terraform.io/-/aws":         {want: Provider{"registry.terraform.io", "-", "aws"}},
		"terraform.io/builtin/terraform":      {want: Provider{"terraform.io", "builtin", "terraform"}},
		"example.com/-/aws":                   {wantErr: `legacy namespace "-" exists only on registry.opentofu.org`},
		"hashicorp/terraform-provider-aws":    {wantErr: `did you mean "hashicorp/aws"?`},
		"terraform-aws":                       {wantErr: `must not start with "terraform-"`},
		"a/b/c/d":                             {wantErr: "want [HOSTNAME/]NAMESPACE/TYPE"},
		"hashicorp//aws":                      {wantErr: "empty segment"},
		"":                                    {wantErr: "empty segment"},
		"hashi corp/aws":                      {wantErr: "invalid provider namespace"},
		"hashicorp/a.b":                       {wantErr: "invalid provider type"},
		"bad host/hashicorp/aws":              {wantErr: "invalid provider hostname"},
	}
	for in, tc := range tests {
		t.Run(in, func(t *testing.T) {
			got, err := ParseProviderSource(in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			again, err := ParseProviderSource(got.String())
			if err != nil || again != got {
				t.Fatalf("String %q does not parse back: %v, %v", got, again, err)
			}
		})
	}
}

func TestProviderForDisplay(t *testing.T) {
	tests := map[string]string{
		"hashicorp/time":                      "hashicorp/time",
		"registry.terraform.io/hashicorp/aws": "registry.terraform.io/hashicorp/aws",
		"example.com/acme/widget":             "example.com/acme/widget",
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := MustParseProviderSource(in).ForDisplay(); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

func TestMigrateLegacyRegistryHost(t *testing.T) {
	tf := MustParseProviderSource("registry.terraform.io/hashicorp/null")
	tests := map[string]struct {
		in       Provider
		explicit func(Provider) bool
		want     Provider
	}{
		"state address becomes opentofu's":  {in: tf, want: NewDefaultProvider("null")},
		"kept when config names it in full": {in: tf, explicit: func(p Provider) bool { return p == tf }, want: tf},
		"other hosts untouched":             {in: MustParseProviderSource("example.com/a/b"), want: MustParseProviderSource("example.com/a/b")},
		"legacy namespace untouched":        {in: MustParseProviderSource("registry.terraform.io/-/aws"), want: MustParseProviderSource("registry.terraform.io/-/aws")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, MigrateLegacyRegistryHost(tc.in, tc.explicit)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseProviderSource checks that whatever parses prints back to a
// string that parses to the same provider.
func FuzzParseProviderSource(f *testing.F) {
	for _, s := range []string{"time", "hashicorp/time", "example.com:8443/acme/widget", "-/aws", "xn--80ak6aa92e.com/a/b", "a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProviderSource(s)
		if err != nil {
			return
		}
		again, err := ParseProviderSource(p.String())
		if err != nil {
			t.Fatalf("%q parsed to %q, which does not parse: %v", s, p, err)
		}
		if again != p {
			t.Fatalf("%q parsed to %#v, its string to %#v", s, p, again)
		}
	})
}
