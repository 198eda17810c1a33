package config

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestNestingLimit(t *testing.T) {
	deep := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	cases := []struct {
		name, file, src string
		wantLine        int // 0: no diagnostic
	}{
		{"brackets at the limit", "main.tf", "locals {\n  a = " + deep("[", "1", "]", MaxNestingDepth-2) + "\n}\n", 0},
		{"brackets over the limit", "main.tf", "locals {\n  a = " + deep("[", "1", "]", 100000) + "\n}\n", 2},
		{"parentheses", "main.tf", "\nlocals {\n  a = " + deep("(", "1", ")", 5000) + "\n}\n", 3},
		{"unary operators", "main.tf", "locals {\n  a = " + strings.Repeat("!", 100000) + "true\n}\n", 2},
		{"binary operator chain", "main.tf", "locals {\n  a = 1" + strings.Repeat(" + 1", 100000) + "\n}\n", 2},
		{"templates", "main.tf", "locals {\n  a = " + deep(`"${`, "1", `}"`, 5000) + "\n}\n", 2},
		{"brackets in a string do not count", "main.tf", "locals {\n  a = \"" + strings.Repeat("[", 5000) + "\"\n}\n", 0},
		{"operators in many elements do not add up", "main.tf", "locals {\n  a = [\n" + strings.Repeat("    1 + 2 - 3,\n", 5000) + "  ]\n}\n", 0},
		{"json over the limit", "main.tf.json", "{\"locals\": {\n\"a\": " + deep("[", "1", "]", 100000) + "}}", 2},
		{"json template over the limit", "main.tf.json", "{\"locals\": {\n\"a\": \"${" + deep("[", "1", "]", 100000) + "}\"}}", 2},
		{"json template within the limit", "main.tf.json", `{"locals": {"a": "${` + deep("[", "1", "]", 50) + `}"}}`, 0},
		{"json brackets in strings", "main.tf.json", `{"locals": {"a": "` + strings.Repeat("[", 5000) + `"}}`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Load(fstest.MapFS{tc.file: {Data: []byte(tc.src)}}, ".")
			var got []string
			for _, d := range diags {
				if d.Subject == nil {
					t.Fatalf("diagnostic without a location: %s", d.Summary)
				}
				got = append(got, d.Summary+"@"+d.Subject.Filename+":"+strconv.Itoa(d.Subject.Start.Line))
			}
			var want []string
			if tc.wantLine > 0 {
				want = []string{"Expression nested too deeply@" + tc.file + ":" + strconv.Itoa(tc.wantLine)}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
