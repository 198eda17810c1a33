package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/tenetplan/tenet/internal/provenance"
)

// Kinds of move endpoints, as written ([MoveEndpoint.Kind]) and as unified
// ([MoveDecisions.Kinds]).
const (
	MoveModuleCall     = "module_call"     // module.a: every instance of the call
	MoveModuleInstance = "module_instance" // module.a[0] (or the no-key instance)
	MoveResource       = "resource"        // type.name: every instance
	MoveInstance       = "instance"        // type.name[0] (or the no-key instance)
)

// MoveFacts is the input of the "moves" stage: the explicit moved blocks of
// every module followed by the implied count moves.
type MoveFacts struct {
	// Validate asks for errors and warnings: set after the plan walk, with
	// Declared and Blocked filled in.
	Validate   bool            `json:"validate"`
	Statements []MoveStatement `json:"statements"`
	Blocked    []BlockedMove   `json:"blocked"`
}

// MoveStatement is one moved block (or implied move).
type MoveStatement struct {
	Implied bool         `json:"implied"`
	Depth   int          `json:"depth"` // number of steps of the declaring module path
	Pos     string       `json:"pos"`   // "file:line,column" of the block, for messages
	From    MoveEndpoint `json:"from"`
	To      MoveEndpoint `json:"to"`
	// Declared says, for each way of reading From, whether the configuration
	// still declares it (only read when validating).
	Declared MoveDeclared `json:"declared"`
}

// MoveEndpoint is one side of a statement as an absolute pattern.
type MoveEndpoint struct {
	Kind string `json:"kind"` // as written: one of the Move* kinds
	// Modules are the module steps from the root: the declaring module's
	// steps have Key "[*]" (the statement applies in each of its instances),
	// the endpoint's own steps their written key or "".
	Modules        []MoveModuleStep `json:"modules"`
	Resource       string           `json:"resource"`        // "type.name" / "data.type.name", "" for modules
	Type           string           `json:"type"`            // resource type, "" for modules
	Key            string           `json:"key"`             // instance key as in addresses ("[0]"), or ""
	ConfigResource string           `json:"config_resource"` // static resource address, "" for modules
	Text           string           `json:"text"`            // the address as written
}

// MoveModuleStep is one module step of an endpoint.
type MoveModuleStep struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// MoveDeclared says whether the configuration declares a from endpoint when
// it is read as each kind.
type MoveDeclared struct {
	ModuleCall     bool `json:"module_call"`
	ModuleInstance bool `json:"module_instance"`
	Resource       bool `json:"resource"`
	Instance       bool `json:"instance"`
}

// BlockedMove is a move the engine could not execute because an object
// already existed at the destination.
type BlockedMove struct {
	Statement int    `json:"statement"`
	From      string `json:"from"`
	To        string `json:"to"`
}

// MoveDecisions is what the "moves" stage decided.
type MoveDecisions struct {
	// Kinds is the unified kind of each statement, by index.
	Kinds []string
	// Order lists the statements to execute, dependencies first; it is empty
	// when the statements form a cycle.
	Order []int
	// Skipped holds the implied statements an explicit one overrides.
	Skipped map[int]provenance.Rule
	// Cyclic lists the statements that are part of a cycle.
	Cyclic []int
	// CrossType lists statements that move objects between resource types.
	CrossType []int
	// Errors and Warnings are only produced when validating.
	Errors   []MoveFinding
	Warnings []MoveFinding
	// Unified is the rule that chose every statement's kind.
	Unified provenance.Rule
}

// MoveFinding is an error or warning about a statement (Statement is -1 when
// it concerns no single statement).
type MoveFinding struct {
	Statement int
	Rule      provenance.Rule
	Summary   string
	Detail    string
}

type moveResult struct {
	Kinds     map[string]string `json:"kinds"`
	Order     []int             `json:"order"`
	Skipped   []int             `json:"skipped"`
	Cyclic    []int             `json:"cyclic"`
	CrossType []int             `json:"cross_type"`
	Errors    []moveFinding     `json:"errors"`
	Warnings  []moveFinding     `json:"warnings"`
}

type moveFinding struct {
	Statement int    `json:"statement"`
	Rule      string `json:"rule"`
	Summary   string `json:"summary"`
	Detail    string `json:"detail"`
}

// DecideMoves evaluates the "moves" stage. The statement count is small
// (moved blocks plus implied count moves), so input and output go through
// JSON.
func (e *Engine) DecideMoves(ctx context.Context, facts MoveFacts) (MoveDecisions, error) {
	if facts.Statements == nil {
		facts.Statements = []MoveStatement{}
	}
	if facts.Blocked == nil {
		facts.Blocked = []BlockedMove{}
	}
	for i := range facts.Statements {
		for _, ep := range []*MoveEndpoint{&facts.Statements[i].From, &facts.Statements[i].To} {
			if ep.Modules == nil {
				ep.Modules = []MoveModuleStep{}
			}
		}
	}
	src, err := json.Marshal(facts)
	if err != nil {
		return MoveDecisions{}, err
	}
	input, err := ast.ValueFromReader(bytes.NewReader(src))
	if err != nil {
		return MoveDecisions{}, err
	}
	rs, err := e.moves.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return MoveDecisions{}, fmt.Errorf("evaluating move rules: %w", err)
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return MoveDecisions{}, fmt.Errorf("move rules produced no result")
	}
	raw, err := json.Marshal(rs[0].Expressions[0].Value)
	if err != nil {
		return MoveDecisions{}, err
	}
	var res moveResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return MoveDecisions{}, fmt.Errorf("move rules returned an unexpected result: %w", err)
	}
	out := MoveDecisions{
		Kinds:     make([]string, len(facts.Statements)),
		Order:     res.Order,
		Cyclic:    res.Cyclic,
		CrossType: res.CrossType,
		Skipped:   map[int]provenance.Rule{},
		Unified:   e.fired("tenet.moves.unify"),
	}
	for i := range out.Kinds {
		out.Kinds[i] = res.Kinds[fmt.Sprint(i)]
	}
	for _, i := range res.Skipped {
		out.Skipped[i] = e.fired("tenet.moves.implied_overridden")
	}
	for _, f := range res.Errors {
		out.Errors = append(out.Errors, MoveFinding{Statement: f.Statement, Rule: e.fired(f.Rule), Summary: f.Summary, Detail: f.Detail})
	}
	for _, f := range res.Warnings {
		out.Warnings = append(out.Warnings, MoveFinding{Statement: f.Statement, Rule: e.fired(f.Rule), Summary: f.Summary, Detail: f.Detail})
	}
	sortFindings(out.Errors)
	sortFindings(out.Warnings)
	return out, nil
}

func sortFindings(fs []MoveFinding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Statement != fs[j].Statement {
			return fs[i].Statement < fs[j].Statement
		}
		return fs[i].Summary < fs[j].Summary
	})
}
