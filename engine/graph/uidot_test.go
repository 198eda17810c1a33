package graph

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestUICyclesNamesResourcesByExpansion(t *testing.T) {
	in := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Cycle: local.a (expand), module.m.var.in (expand, input), module.m.var.in (expand, reference), terraform_data.x"},
		{Severity: hcl.DiagError, Summary: "Other"},
	}
	got := UICycles(in)
	want := []string{
		"Cycle: local.a (expand), module.m.var.in (expand, input), module.m.var.in (expand, reference), terraform_data.x (expand)",
		"Other",
	}
	if diff := cmp.Diff(want, []string{got[0].Summary, got[1].Summary}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if in[0].Summary == got[0].Summary {
		t.Error("UICycles changed its input in place")
	}
}

func TestUIGraphReduceAndDOT(t *testing.T) {
	u := newUIGraph()
	u.edge("c (expand)", "b (expand)")
	u.edge("b (expand)", "a (expand)")
	u.edge("c (expand)", "a (expand)") // implied by c -> b -> a
	u.draw("a (expand)", "a", "box")
	u.draw("a", "a", "box")
	u.edge("a", "a (expand)")
	u.draw(`p["x"]`, `p["x"]`, "diamond")
	u.reduce()
	if u.HasEdge("c (expand)", "a (expand)") {
		t.Error("reduce kept an edge a longer path implies")
	}
	var b strings.Builder
	if err := u.DOT(&b, false); err != nil {
		t.Fatal(err)
	}
	want := `digraph {
	compound = "true"
	newrank = "true"
	subgraph "root" {
		"[root] a" [label = "a", shape = "box"]
		"[root] a (expand)" [label = "a", shape = "box"]
		"[root] p[\"x\"]" [label = "p[\"x\"]", shape = "diamond"]
		"[root] a" -> "[root] a (expand)"
		"[root] b (expand)" -> "[root] a (expand)"
		"[root] c (expand)" -> "[root] b (expand)"
	}
}
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
