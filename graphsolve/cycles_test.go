package graphsolve

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		specs []string
		want  []string
	}{
		{name: "acyclic", specs: []string{"a->b", "b->c", "a->c", "d"}},
		{name: "two vertices", specs: []string{"b->a", "a->b"}, want: []string{"Cycle: a, b"}},
		{
			name:  "members only, sorted by name, tails left out",
			specs: []string{"tail->z", "z->m", "m->a", "a->z", "a->leaf"},
			want:  []string{"Cycle: a, m, z"},
		},
		{
			name:  "one error per component",
			specs: []string{"x->y", "y->x", "b->c", "c->b", "b->x"},
			want:  []string{"Cycle: b, c", "Cycle: x, y"},
		},
		{name: "self reference", specs: []string{"a->a", "b->a"}, want: []string{"Self reference: a"}},
		{
			name:  "self reference inside a cycle",
			specs: []string{"a->b", "b->a", "b->b"},
			want:  []string{"Cycle: a, b", "Self reference: b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, tt.specs...)
			errs := g.Validate()
			if diff := cmp.Diff(tt.want, errorStrings(errs)); diff != "" {
				t.Errorf("Validate() (-want +got):\n%s", diff)
			}
			for _, err := range errs {
				if !errors.Is(err, ErrCycle) {
					t.Errorf("errors.Is(%q, ErrCycle) = false", err)
				}
			}
			_, err := g.TopoOrder()
			if (err != nil) != (len(tt.want) > 0) {
				t.Errorf("TopoOrder() error = %v, want error: %v", err, len(tt.want) > 0)
			}
			if len(tt.want) > 0 && !errors.Is(err, ErrCycle) {
				t.Errorf("TopoOrder() error %v does not match ErrCycle", err)
			}
		})
	}
}

func TestCycleErrorMembers(t *testing.T) {
	type addr struct{ name string }
	g := New(func(a addr) string { return a.name + " (destroy)" })
	g.AddEdge(addr{"b"}, addr{"a"})
	g.AddEdge(addr{"a"}, addr{"b"})
	errs := g.Validate()
	if len(errs) != 1 {
		t.Fatalf("Validate() = %v, want one error", errs)
	}
	var ce *CycleError[addr]
	if !errors.As(errs[0], &ce) {
		t.Fatalf("error %T is not a *CycleError", errs[0])
	}
	if diff := cmp.Diff([]addr{{"a"}, {"b"}}, ce.Members, cmp.AllowUnexported(addr{})); diff != "" {
		t.Errorf("Members (-want +got):\n%s", diff)
	}
	if got, want := ce.Error(), "Cycle: a (destroy), b (destroy)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	want := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cycle: a (destroy), b (destroy)"}}
	if diff := cmp.Diff(want, g.ValidateDiagnostics()); diff != "" {
		t.Errorf("ValidateDiagnostics() (-want +got):\n%s", diff)
	}
}

// A cycle through 100k vertices must not overflow anything and must name all
// of them.
func TestValidateDeepCycle(t *testing.T) {
	const n = 100_000
	g := New[int](nil)
	for i := range n {
		g.AddEdge(i, (i+1)%n)
	}
	g.AddEdge(n, 0) // a tail hanging off the cycle
	errs := g.Validate()
	if len(errs) != 1 {
		t.Fatalf("Validate() returned %d errors, want 1", len(errs))
	}
	var ce *CycleError[int]
	if !errors.As(errs[0], &ce) || len(ce.Members) != n {
		t.Fatalf("cycle has %d members, want %d", len(ce.Members), n)
	}
	if got, want := fmt.Sprint(ce.Members[:3]), "[0 1 10]"; got != want {
		t.Errorf("first members %s, want %s (sorted by name)", got, want)
	}
}
