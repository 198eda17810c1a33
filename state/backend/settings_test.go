package backend

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestSettings(t *testing.T) {
	type got struct {
		S    string
		B    bool
		I    int
		L    []string
		M    map[string]string
		Has  bool
		Errs string
	}
	tests := []struct {
		name string
		body string
		env  map[string]string
		want got
	}{
		{
			name: "arguments",
			body: "s = \"x\"\nb = true\ni = 3\nl = [\"a\", \"b\"]\nm = { k = \"v\" }",
			want: got{S: "x", B: true, I: 3, L: []string{"a", "b"}, M: map[string]string{"k": "v"}, Has: true},
		},
		{
			name: "environment fills in",
			env:  map[string]string{"E_S": "y", "E_B": "1", "E_I": "7", "E_L": "a,b"},
			want: got{S: "y", B: true, I: 7, L: []string{"a", "b"}},
		},
		{
			name: "defaults",
			want: got{S: "def", I: 2},
		},
		{
			name: "arguments win",
			body: `s = "x"`,
			env:  map[string]string{"E_S": "y"},
			want: got{S: "x", I: 2, Has: true},
		},
		{
			name: "wrong types",
			body: "b = \"perhaps\"\ni = 1.5",
			want: got{S: "def", I: 2, Has: false, Errs: `Invalid value for backend argument "b"; Invalid value for backend argument "i"`},
		},
		{
			name: "unknown argument",
			body: `z = 1`,
			want: got{S: "def", I: 2, Errs: `Unsupported backend argument`},
		},
		{
			name: "bad environment number",
			env:  map[string]string{"E_I": "-1"},
			want: got{S: "def", I: 2, Errs: "Invalid value in environment variable E_I"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tt.body), "b.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			s, diags := DecodeBody(f.Body)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			s.Getenv = func(k string) string { return tt.env[k] }
			var g got
			g.S = s.String("s", "def", "E_S")
			g.B = s.Bool("b", false, "E_B")
			g.I = s.Int("i", 2, "E_I")
			g.L = s.Strings("l", "E_L")
			g.M = s.StringMap("m")
			g.Has = s.Has("s")
			var summaries []string
			for _, d := range s.Check("test") {
				summaries = append(summaries, d.Summary)
				if d.Subject == nil && strings.HasPrefix(d.Summary, "Invalid value for") {
					t.Errorf("diagnostic %q has no source range", d.Summary)
				}
			}
			g.Errs = strings.Join(summaries, "; ")
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
