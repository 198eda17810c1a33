package regokit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// readsReport is what the analysis says of one rule, its references
// limited to those into input and data (the rest are OPA's operators and
// local variables, which depend on how it rewrites a body).
type readsReport struct {
	Refs      []string
	Input     bool
	BareInput bool
	With      bool
	Transit   bool // ReadsInput of every definition of the name
}

func TestReads(t *testing.T) {
	const main = `package t

direct if input.a.b == 1

bare := input

via_rule if direct

via_func(x) := y if {
	y := x + count(input.list)
}

calls_func := via_func(1)

data_only if data.t.conf.level > 2

conf := {"level": 3}

withed if direct with input.a.b as 1

nested := data.t.conf[input.key]

nothing := 1
`
	// OPA refuses recursion; the analysis must still end on what the
	// failed compiler holds.
	const cycle = `package c

a if b

b if a

b if input.x

p if q

q if p
`
	tests := []struct {
		module string
		pkg    string
		rule   string
		parsed bool // scan the rule as parsed (no compiler, no Transit)
		want   readsReport
	}{
		{main, "t", "direct", false, readsReport{Refs: []string{"input.a.b"}, Input: true, Transit: true}},
		{main, "t", "bare", false, readsReport{Refs: []string{"input"}, Input: true, BareInput: true, Transit: true}},
		{main, "t", "bare", true, readsReport{Refs: []string{"input"}, Input: true, BareInput: true}},
		{main, "t", "via_rule", false, readsReport{Refs: []string{"data.t.direct"}, Transit: true}},
		{main, "t", "via_func", false, readsReport{Refs: []string{"input.list"}, Input: true, Transit: true}},
		{main, "t", "calls_func", false, readsReport{Refs: []string{"data.t.via_func"}, Transit: true}},
		{main, "t", "data_only", false, readsReport{Refs: []string{"data.t.conf.level"}}},
		{main, "t", "withed", false, readsReport{Refs: []string{"data.t.direct", "input.a.b"}, Input: true, With: true, Transit: true}},
		// Compiled, the inner reference is bound to a local first.
		{main, "t", "nested", false, readsReport{Refs: []string{"input.key", "data.t.conf[__local9__]"}, Input: true, Transit: true}},
		{main, "t", "nested", true, readsReport{Refs: []string{"data.t.conf[input.key]", "input.key"}, Input: true}},
		{main, "t", "nothing", false, readsReport{}},
		{cycle, "c", "a", false, readsReport{Refs: []string{"data.c.b"}, Transit: true}},
		{cycle, "c", "p", false, readsReport{Refs: []string{"data.c.q"}}},
	}
	compilers := map[string]*ast.Compiler{}
	for _, tc := range tests {
		name := tc.pkg + "." + tc.rule
		if tc.parsed {
			name += "/parsed"
		}
		t.Run(name, func(t *testing.T) {
			if tc.parsed {
				m := mustParse(t, "m.rego", tc.module)
				for _, r := range m.Rules {
					if r.Head.Ref().String() == tc.rule {
						if diff := cmp.Diff(tc.want, report(ScanReads(r))); diff != "" {
							t.Errorf("reads (-want +got):\n%s", diff)
						}
					}
				}
				return
			}
			c := compilers[tc.module]
			if c == nil {
				c = ast.NewCompiler()
				c.Compile(map[string]*ast.Module{"m.rego": mustParse(t, "m.rego", tc.module)})
				if tc.pkg != "c" && c.Failed() {
					t.Fatal(c.Errors)
				}
				compilers[tc.module] = c
			}
			a := NewReads(c)
			ref := Ref(ast.DefaultRootDocument, tc.pkg, tc.rule)
			rules := c.GetRules(ref)
			if len(rules) == 0 {
				t.Fatalf("no rule %s", ref)
			}
			rr := a.Rule(rules[0])
			got := report(rr)
			got.Transit = a.RefReadsInput(ref)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("reads (-want +got):\n%s", diff)
			}
			want := 0
			for _, r := range got.Refs {
				if r == "data.t.direct" {
					want++
				}
			}
			if n := rr.CountUnder(Ref(ast.DefaultRootDocument, "t", "direct")); n != want {
				t.Errorf("CountUnder(data.t.direct) = %d, want %d", n, want)
			}
			if RefsUnder(rules[0], Ref(ast.DefaultRootDocument, "t", "direct")) != (want > 0) {
				t.Errorf("RefsUnder(data.t.direct) = %v", want == 0)
			}
		})
	}
}

// TestReadsBareVar: a rewrite may leave the variable input outside a
// reference; that is input as a value too, unlike a reference's head.
func TestReadsBareVar(t *testing.T) {
	if rr := ScanReads(ast.VarTerm("input")); !rr.Input || !rr.BareInput {
		t.Errorf("variable input: %+v", rr)
	}
	if rr := ScanReads(Ref(ast.InputRootDocument, "a")); !rr.Input || rr.BareInput {
		t.Errorf("input.a: %+v", rr)
	}
}

func report(rr *RuleReads) readsReport {
	got := readsReport{Input: rr.Input, BareInput: rr.BareInput, With: rr.With}
	for _, r := range rr.Refs {
		if r[0].Equal(ast.InputRootDocument) || r[0].Equal(ast.DefaultRootDocument) {
			got.Refs = append(got.Refs, r.String())
		}
	}
	return got
}
