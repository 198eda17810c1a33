package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFormat(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "alignment and comments",
			in:   "resource \"terraform_data\" \"a\" {\n  # keep me\n  input = 1\n  triggers_replace=[2]\n}\n",
			want: "resource \"terraform_data\" \"a\" {\n  # keep me\n  input            = 1\n  triggers_replace = [2]\n}\n",
		},
		{
			name: "interpolation only",
			in:   "locals {\n  a = \"${var.x}\"\n  b = \"${var.x}-suffix\"\n  c = \"${var.x}${var.y}\"\n}\n",
			want: "locals {\n  a = var.x\n  b = \"${var.x}-suffix\"\n  c = \"${var.x}${var.y}\"\n}\n",
		},
		{
			name: "quoted variable type",
			in:   "variable \"a\" {\n  type = \"list\"\n}\nvariable \"b\" {\n  type = \"string\"\n}\n",
			want: "variable \"a\" {\n  type = list(string)\n}\nvariable \"b\" {\n  type = string\n}\n",
		},
		{
			name: "unparsable input is only re-laid-out",
			in:   "resource \"x\" {\n  a=1\n",
			want: "resource \"x\" {\n  a = 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Format([]byte(tt.in)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if again := string(Format([]byte(got))); again != got {
				t.Errorf("not idempotent:\n%s", cmp.Diff(got, again))
			}
		})
	}
}

// TestFormatIdempotentOnScenarios formats every recorded config twice.
func TestFormatIdempotentOnScenarios(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(scenariosDir, "*", "steps", "*", "*.tf"))
	if len(files) == 0 {
		t.Fatal("no conformance scenarios under " + scenariosDir)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once := Format(src)
		if twice := Format(once); string(twice) != string(once) {
			t.Errorf("%s: not idempotent:\n%s", f, cmp.Diff(string(once), string(twice)))
		}
	}
}
