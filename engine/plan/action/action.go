package action

import (
	"fmt"
	"slices"
)

//go:generate go run golang.org/x/tools/cmd/stringer -type=Action

// Action is what a change does to a resource instance object, a root
// output or, in the human plan, one attribute value.
//
// The values are consecutive from NoOp, so UIs may index arrays by them;
// Forget is the last.
type Action int

const (
	NoOp Action = iota
	Create
	Read
	Update
	DeleteThenCreate
	CreateThenDelete
	Delete
	Forget
)

// spelling is how one action is written outside Go.
type spelling struct {
	json []string // the JSON plan's change.actions (shared: never modified)
	ui   string   // the machine-readable UI's action, also of its hooks
	rule string   // the planning rules' (Rego) name
	// verb and noun are the human progress words of an apply hook:
	// "Creating...", "Still creating...", "Creation complete after 1s".
	verb, noun string
}

// spellings lists every spelling of every action, and is the only place
// that does.
var spellings = [...]spelling{
	NoOp:             {[]string{"no-op"}, "noop", "no-op", "applying", "Apply"},
	Create:           {[]string{"create"}, "create", "create", "creating", "Creation"},
	Read:             {[]string{"read"}, "read", "read", "reading", "Read"},
	Update:           {[]string{"update"}, "update", "update", "modifying", "Modifications"},
	DeleteThenCreate: {[]string{"delete", "create"}, "replace", "delete-then-create", "applying", "Apply"},
	CreateThenDelete: {[]string{"create", "delete"}, "replace", "create-then-delete", "applying", "Apply"},
	Delete:           {[]string{"delete"}, "delete", "delete", "destroying", "Destruction"},
	Forget:           {[]string{"forget"}, "remove", "forget", "removing", "Removal"},
}

// unknown spells an undeclared action; verb and noun are what a progress
// line says of an operation it cannot name.
var unknown = spelling{ui: "unknown", verb: "applying", noun: "Apply"}

func (a Action) spelling() *spelling {
	if !a.Valid() {
		return &unknown
	}
	return &spellings[a]
}

// Valid reports whether a is one of the declared actions.
func (a Action) Valid() bool { return a >= NoOp && a <= Forget }

// IsReplace reports whether the action is one of the two replace orders.
func (a Action) IsReplace() bool { return a == DeleteThenCreate || a == CreateThenDelete }

// JSONActions is the `change.actions` list of the JSON plan, nil for an
// undeclared action. The result is shared; callers must not modify it.
func (a Action) JSONActions() []string { return a.spelling().json }

// FromJSONActions reads the `change.actions` list of a JSON plan.
func FromJSONActions(actions []string) (Action, error) {
	for i := range spellings {
		if slices.Equal(spellings[i].json, actions) {
			return Action(i), nil
		}
	}
	return NoOp, fmt.Errorf("unsupported change actions %q", actions)
}

// UIName is the `action` of the machine-readable UI (-json): of a planned
// change or output ("noop", "replace" for both orders), and of an apply
// hook ("remove" for Forget). "unknown" for an undeclared action.
func (a Action) UIName() string { return a.spelling().ui }

// RuleName is the action as the planning rules spell it: the contract of
// the Rego decisions (rules.Decision.Action) and of replace_triggered_by's
// facts, and what explain shows. "" for an undeclared action.
func (a Action) RuleName() string { return a.spelling().rule }

// FromRuleName reads an action the planning rules chose; false for any
// other string (the rules' "no change", rules.ActionNone, included).
func FromRuleName(name string) (Action, bool) {
	for i := range spellings {
		if spellings[i].rule == name {
			return Action(i), true
		}
	}
	return NoOp, false
}

// FromString reads a name String gives (saved plan files record these).
func FromString(name string) (Action, bool) {
	for a := range Forget + 1 {
		if a.String() == name {
			return a, true
		}
	}
	return NoOp, false
}

// ProgressVerb is the human progress line's verb for an operation doing
// the action: "creating", as in "Creating..." and "Still creating...".
func (a Action) ProgressVerb() string { return a.spelling().verb }

// CompletionNoun is the human line's noun for the operation finished:
// "Creation", as in "Creation complete after 1s".
func (a Action) CompletionNoun() string { return a.spelling().noun }
