package graph

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUIGraphPrune(t *testing.T) {
	type node struct {
		name  string
		class uiClass
	}
	tests := []struct {
		name  string
		nodes []node
		edges [][2]string
		want  []string
	}{
		{
			name:  "expansion nothing expands from is dropped with its provider",
			nodes: []node{{"a (expand)", uiExpand}, {"p", uiProvider}},
			edges: [][2]string{{"a (expand)", "p"}},
			want:  []string{},
		},
		{
			name:  "root output keeps nothing alive but stays",
			nodes: []node{{"output.o (expand)", uiValue}, {"a (expand)", uiExpand}, {"p", uiProvider}},
			edges: [][2]string{{"output.o (expand)", "a (expand)"}, {"a (expand)", "p"}},
			want:  []string{"output.o (expand)"},
		},
		{
			name:  "module output read by a root output keeps the chain",
			nodes: []node{{"output.o (expand)", uiValue}, {"module.m.output.y (expand)", uiTemp}, {"module.m.a (expand)", uiExpand}, {"p", uiProvider}},
			edges: [][2]string{{"output.o (expand)", "module.m.output.y (expand)"}, {"module.m.output.y (expand)", "module.m.a (expand)"}, {"module.m.a (expand)", "p"}},
			want:  []string{"module.m.a (expand)", "module.m.output.y (expand)", "output.o (expand)", "p"},
		},
		{
			name:  "a value only a close node waits for is dropped, then what it kept",
			nodes: []node{{"module.m (close)", uiPlain}, {"module.m.local.l (expand)", uiTemp}, {"module.m.var.x (expand, reference)", uiTemp}},
			edges: [][2]string{{"module.m (close)", "module.m.local.l (expand)"}, {"module.m.local.l (expand)", "module.m.var.x (expand, reference)"}},
			want:  []string{"module.m (close)"},
		},
		{
			name:  "an instance keeps its expansion and provider",
			nodes: []node{{"a[0]", uiInstance}, {"a (expand)", uiExpand}, {"p", uiProvider}},
			edges: [][2]string{{"a[0]", "a (expand)"}, {"a (expand)", "p"}},
			want:  []string{"a (expand)", "a[0]", "p"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUIGraph()
			for _, n := range tt.nodes {
				u.add(n.name)
				u.class[n.name] = n.class
			}
			for _, e := range tt.edges {
				u.edge(e[0], e[1])
			}
			u.prune()
			if diff := cmp.Diff(tt.want, u.nodes()); diff != "" {
				t.Errorf("kept nodes (-want +got):\n%s", diff)
			}
		})
	}
}
