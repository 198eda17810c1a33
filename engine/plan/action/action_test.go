package action

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpellings(t *testing.T) {
	type names struct {
		Go, UI, Rule, Verb, Noun string
		JSON                     []string
	}
	cases := map[Action]names{
		NoOp:             {"NoOp", "noop", "no-op", "applying", "Apply", []string{"no-op"}},
		Create:           {"Create", "create", "create", "creating", "Creation", []string{"create"}},
		Read:             {"Read", "read", "read", "reading", "Read", []string{"read"}},
		Update:           {"Update", "update", "update", "modifying", "Modifications", []string{"update"}},
		DeleteThenCreate: {"DeleteThenCreate", "replace", "delete-then-create", "applying", "Apply", []string{"delete", "create"}},
		CreateThenDelete: {"CreateThenDelete", "replace", "create-then-delete", "applying", "Apply", []string{"create", "delete"}},
		Delete:           {"Delete", "delete", "delete", "destroying", "Destruction", []string{"delete"}},
		Forget:           {"Forget", "remove", "forget", "removing", "Removal", []string{"forget"}},
	}
	if len(cases) != len(spellings) {
		t.Fatalf("%d actions tested, %d declared", len(cases), len(spellings))
	}
	for a, want := range cases {
		t.Run(want.Go, func(t *testing.T) {
			got := names{a.String(), a.UIName(), a.RuleName(), a.ProgressVerb(), a.CompletionNoun(), a.JSONActions()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Error(diff)
			}
			if !a.Valid() {
				t.Error("not valid")
			}
			if b, err := FromJSONActions(want.JSON); err != nil || b != a {
				t.Errorf("FromJSONActions(%q) = %v, %v", want.JSON, b, err)
			}
			if b, ok := FromRuleName(want.Rule); !ok || b != a {
				t.Errorf("FromRuleName(%q) = %v, %v", want.Rule, b, ok)
			}
			if b, ok := FromString(want.Go); !ok || b != a {
				t.Errorf("FromString(%q) = %v, %v", want.Go, b, ok)
			}
		})
	}
}

func TestUndeclared(t *testing.T) {
	for _, a := range []Action{-1, Forget + 1} {
		if a.Valid() || a.JSONActions() != nil || a.UIName() != "unknown" || a.RuleName() != "" || a.ProgressVerb() != "applying" || a.CompletionNoun() != "Apply" {
			t.Errorf("undeclared action %v is spelled as a declared one", a)
		}
	}
	for _, bad := range [][]string{nil, {}, {"replace"}, {"create", "create"}, {"delete", "create", "delete"}} {
		if _, err := FromJSONActions(bad); err == nil {
			t.Errorf("FromJSONActions(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "replace", "noop", "Create"} {
		if _, ok := FromRuleName(bad); ok {
			t.Errorf("FromRuleName(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "create", "Action(9)"} {
		if _, ok := FromString(bad); ok {
			t.Errorf("FromString(%q) accepted", bad)
		}
	}
}
