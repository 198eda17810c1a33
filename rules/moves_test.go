package rules

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resEP is a root-module resource endpoint: key "" means none.
func resEP(res, key string) MoveEndpoint {
	kind := MoveResource
	if key != "" {
		kind = MoveInstance
	}
	typ, _, _ := strings.Cut(res, ".")
	return MoveEndpoint{Kind: kind, Resource: res, Type: typ, Key: key, ConfigResource: res, Text: res + key}
}

func modEP(steps ...MoveModuleStep) MoveEndpoint {
	kind := MoveModuleCall
	if steps[len(steps)-1].Key != "" {
		kind = MoveModuleInstance
	}
	return MoveEndpoint{Kind: kind, Modules: steps}
}

func inModule(ep MoveEndpoint, steps ...MoveModuleStep) MoveEndpoint {
	ep.Modules = append(append([]MoveModuleStep(nil), steps...), ep.Modules...)
	ep.ConfigResource = "module." + steps[0].Name + "." + ep.ConfigResource
	return ep
}

func stmt(from, to MoveEndpoint) MoveStatement {
	return MoveStatement{From: from, To: to, Pos: "main.tf:1,1"}
}

func TestDecideMovesExecution(t *testing.T) {
	m := func(name, key string) MoveModuleStep { return MoveModuleStep{Name: name, Key: key} }
	implied := stmt(resEP("terraform_data.a", ""), resEP("terraform_data.a", "[0]"))
	implied.Implied = true
	tests := []struct {
		name      string
		stmts     []MoveStatement
		wantKinds []string
		wantOrder []int
		wantSkip  []int
		wantCycle []int
		wantCross []int
	}{
		{
			name:      "keyless side of an instance move is the no-key instance",
			stmts:     []MoveStatement{stmt(resEP("terraform_data.x", ""), resEP("terraform_data.a", "[0]"))},
			wantKinds: []string{MoveInstance},
			wantOrder: []int{0},
		},
		{
			name: "chain runs the first link first",
			stmts: []MoveStatement{
				stmt(resEP("terraform_data.b", ""), resEP("terraform_data.c", "")),
				stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", "")),
			},
			wantKinds: []string{MoveResource, MoveResource},
			wantOrder: []int{1, 0},
		},
		{
			name: "cycle applies nothing",
			stmts: []MoveStatement{
				stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", "")),
				stmt(resEP("terraform_data.b", ""), resEP("terraform_data.a", "")),
			},
			wantKinds: []string{MoveResource, MoveResource},
			wantOrder: []int{},
			wantCycle: []int{0, 1},
		},
		{
			name: "resource move inside a renamed module waits for the module move",
			stmts: []MoveStatement{
				stmt(inModule(resEP("terraform_data.x", ""), m("b", "")), inModule(resEP("terraform_data.y", ""), m("b", ""))),
				stmt(modEP(m("a", "")), modEP(m("b", ""))),
			},
			wantKinds: []string{MoveResource, MoveModuleCall},
			wantOrder: []int{1, 0},
		},
		{
			name:      "keyed module instance makes both module instances",
			stmts:     []MoveStatement{stmt(modEP(m("m", "[0]")), modEP(m("m", `["a"]`)))},
			wantKinds: []string{MoveModuleInstance},
			wantOrder: []int{0},
		},
		{
			name:      "explicit block naming the resource overrides the implied move",
			stmts:     []MoveStatement{stmt(resEP("terraform_data.x", ""), resEP("terraform_data.a", "[0]")), implied},
			wantKinds: []string{MoveInstance, MoveInstance},
			wantOrder: []int{0},
			wantSkip:  []int{1},
		},
		{
			name:      "implied move alone is executed",
			stmts:     []MoveStatement{implied},
			wantKinds: []string{MoveInstance},
			wantOrder: []int{0},
		},
		{
			name:      "move between types is flagged",
			stmts:     []MoveStatement{stmt(resEP("terraform_data.a", ""), resEP("time_static.a", ""))},
			wantKinds: []string{MoveResource},
			wantOrder: []int{0},
			wantCross: []int{0},
		},
	}
	e := newTestEngine(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := e.DecideMoves(context.Background(), MoveFacts{Statements: tt.stmts})
			if err != nil {
				t.Fatal(err)
			}
			var skipped []int
			for i := range tt.stmts {
				if _, ok := d.Skipped[i]; ok {
					skipped = append(skipped, i)
				}
			}
			got := []any{d.Kinds, d.Order, skipped, d.Cyclic, d.CrossType}
			want := []any{tt.wantKinds, tt.wantOrder, tt.wantSkip, nonNil(tt.wantCycle), nonNil(tt.wantCross)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("kinds, order, skipped, cyclic, cross-type (-want +got):\n%s", diff)
			}
			if len(d.Errors) > 0 || len(d.Warnings) > 0 {
				t.Errorf("findings without validation: %v %v", d.Errors, d.Warnings)
			}
		})
	}
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func TestDecideMovesValidation(t *testing.T) {
	stillDeclared := stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", ""))
	stillDeclared.Declared.Resource = true
	cycle := []MoveStatement{
		stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", "")),
		stmt(resEP("terraform_data.b", ""), resEP("terraform_data.a", "")),
	}
	tests := []struct {
		name     string
		facts    MoveFacts
		errors   []string // "statement:summary:rule"
		warnings []string
	}{
		{
			name:   "redundant",
			facts:  MoveFacts{Statements: []MoveStatement{stmt(resEP("terraform_data.a", "[0]"), resEP("terraform_data.a", "[0]"))}},
			errors: []string{"0:Redundant move statement:tenet.moves.redundant"},
		},
		{
			name:   "from still declared",
			facts:  MoveFacts{Statements: []MoveStatement{stillDeclared}},
			errors: []string{"0:Moved object still exists:tenet.moves.still_exists"},
		},
		{
			name: "declared as another kind does not count",
			facts: MoveFacts{Statements: []MoveStatement{func() MoveStatement {
				s := stmt(resEP("terraform_data.a", "[0]"), resEP("terraform_data.b", ""))
				s.Declared.Resource = true
				return s
			}()}},
		},
		{
			name: "same from, two destinations",
			facts: MoveFacts{Statements: []MoveStatement{
				stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", "")),
				stmt(resEP("terraform_data.a", ""), resEP("terraform_data.c", "")),
			}},
			errors: []string{"1:Ambiguous move statements:tenet.moves.ambiguous_from"},
		},
		{
			name: "two sources, same destination",
			facts: MoveFacts{Statements: []MoveStatement{
				stmt(resEP("terraform_data.a", ""), resEP("terraform_data.c", "")),
				stmt(resEP("terraform_data.b", ""), resEP("terraform_data.c", "")),
			}},
			errors: []string{"1:Ambiguous move statements:tenet.moves.ambiguous_to"},
		},
		{
			name:   "cycle",
			facts:  MoveFacts{Statements: cycle},
			errors: []string{"0:Cyclic dependency in move statements:tenet.moves.cycle_error"},
		},
		{
			name: "cycle is not reported next to other errors",
			facts: MoveFacts{Statements: func() []MoveStatement {
				s := append([]MoveStatement(nil), cycle...)
				s[0].Declared.Resource = true
				return s
			}()},
			errors: []string{"0:Moved object still exists:tenet.moves.still_exists"},
		},
		{
			name: "blocked move warns",
			facts: MoveFacts{
				Statements: []MoveStatement{stmt(resEP("terraform_data.a", ""), resEP("terraform_data.b", ""))},
				Blocked:    []BlockedMove{{Statement: 0, From: "terraform_data.a", To: "terraform_data.b"}},
			},
			warnings: []string{"-1:Unresolved resource instance address changes:tenet.moves.blocked"},
		},
		{
			name: "implied statements are never invalid",
			facts: MoveFacts{Statements: []MoveStatement{func() MoveStatement {
				s := stmt(resEP("terraform_data.a", ""), resEP("terraform_data.a", "[0]"))
				s.Implied, s.Declared.Instance = true, true
				return s
			}()}},
		},
	}
	e := newTestEngine(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.facts.Validate = true
			d, err := e.DecideMoves(context.Background(), tt.facts)
			if err != nil {
				t.Fatal(err)
			}
			render := func(fs []MoveFinding) []string {
				var out []string
				for _, f := range fs {
					if f.Detail == "" || f.Rule.File == "" {
						t.Errorf("finding %q lacks detail or provenance: %+v", f.Summary, f)
					}
					out = append(out, strings.Join([]string{strconv.Itoa(f.Statement), f.Summary, f.Rule.RuleID}, ":"))
				}
				return out
			}
			if diff := cmp.Diff(tt.errors, render(d.Errors)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, render(d.Warnings)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
