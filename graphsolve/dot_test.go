package graphsolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDOT(t *testing.T) {
	tests := []struct {
		name  string
		title string
		specs []string
		want  string
	}{
		{
			name: "empty",
			want: "digraph {\n\trankdir = \"RL\";\n\tnode [shape = \"rect\"];\n}\n",
		},
		{
			name:  "sorted by name whatever the insertion order",
			title: "apply",
			specs: []string{"z->b", "z->a", "a->b", "m"},
			want: `digraph "apply" {
	rankdir = "RL";
	node [shape = "rect"];
	"a";
	"b";
	"m";
	"z";
	"a" -> "b";
	"z" -> "a";
	"z" -> "b";
}
`,
		},
		{
			name:  "quotes escaped",
			specs: []string{`provider["registry/aws"]->x\y`},
			want: `digraph {
	rankdir = "RL";
	node [shape = "rect"];
	"provider[\"registry/aws\"]";
	"x\\y";
	"provider[\"registry/aws\"]" -> "x\\y";
}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sb strings.Builder
			if err := build(t, tt.specs...).DOT(&sb, tt.title); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, sb.String()); diff != "" {
				t.Errorf("DOT (-want +got):\n%s", diff)
			}
		})
	}
}
