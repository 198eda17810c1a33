package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// elementFixtures are policy sets with the member paths of a resource
// change the analysis must find; nil paths mean "whole element". The
// marks of a value read (change.after_sensitive) are needed with it, for
// redaction (redact.go).
var elementFixtures = map[string]struct {
	files map[string]string
	paths []string
	drift []string // resource_drift, when the fixture reads it
}{
	"examples": {paths: []string{"address", "change.actions", "change.after.tags", "change.after_sensitive", "mode", "type"}},
	"alias of a member": {files: regoV1(`
deny contains a if {
	some rc in input.resource_changes
	c := rc.change
	after := c.after
	a := after.name
	"create" in c.actions
}`), paths: []string{"change.actions", "change.after.name", "change.after_sensitive"}},
	"member iterated with a variable key": {files: regoV1(`
deny contains k if {
	some rc in input.resource_changes
	some k, v in rc.change.after
	v == 1
	rc.type == "x"
}`), paths: []string{"change.after", "change.after_sensitive", "type"}},
	"element indexed by a variable": {files: regoV1(`
deny contains k if {
	some rc in input.resource_changes
	some k in ["address", "type"]
	rc[k] == "x"
}`), paths: nil},
	"function reading members of its parameter": {files: regoV1(`
creates(rc) if "create" in rc.change.actions
kind(x) := x.type
deny contains rc.address if { some rc in input.resource_changes; creates(rc); kind(rc) == "a" }`),
		paths: []string{"address", "change.actions", "type"}},
	"function returning its parameter": {files: regoV1(`
same(x) := x
deny contains a if { some rc in input.resource_changes; a := same(rc).address }`), paths: nil},
	"function returning a member": {files: regoV1(`
after(x) := x.change.after
deny contains "big" if { some rc in input.resource_changes; after(rc).size > 3 }`), paths: []string{"change.after", "change.after_sensitive"}},
	"function given a member": {files: regoV1(`
has_tags(after) if after.tags
deny contains "t" if { some rc in input.resource_changes; has_tags(rc.change.after) }`), paths: []string{"change.after.tags", "change.after_sensitive"}},
	"function calling a function": {files: regoV1(`
tags(after) := after.tags
owner(rc) := tags(rc.change.after).owner
deny contains o if { some rc in input.resource_changes; o := owner(rc) }`), paths: []string{"change.after.tags", "change.after_sensitive"}}, // a result is kept whole
	"function with a non-variable parameter": {files: regoV1(`
first([n, _]) := n
deny contains n if { some rc in input.resource_changes; n := first(rc.change.actions) }`), paths: []string{"change.actions"}},
	"collection rule read by index and counted": {files: regoV1(`
changes := [rc | some rc in input.resource_changes; rc.change.actions != ["no-op"]]
deny contains "many" if count(changes) > 3
deny contains rc.address if { some rc in changes; rc.type == "x" }`), paths: []string{"address", "change.actions", "type"}},
	"collection rule of members read whole": {files: regoV1(`
addresses := [rc.address | some rc in input.resource_changes]
deny contains {"msg": "all", "addresses": addresses} if count(addresses) > 0`), paths: []string{"address"}},
	"collection rule given whole to a builtin": {files: regoV1(`
changes := [rc | some rc in input.resource_changes]
deny contains m if m := json.marshal(changes)`), paths: nil},
	"package holding a collection rule read whole": {files: map[string]string{
		"c.rego": "package c\n\nchanges := [rc | some rc in input.resource_changes]\n",
		"p.rego": "package p\n\nimport data.c\n\ndeny contains \"x\" if { some k, v in data.c; k == \"changes\"; count(v) > 1 }\n",
	}, paths: nil},
	"collection rule that is a policy": {files: regoV1(`
deny := [rc | some rc in input.resource_changes; rc.type == "x"]`), paths: nil},
	"set of elements": {files: regoV1(`
kinds := {rc | some rc in input.resource_changes}
deny contains "n" if count(kinds) > 1`), paths: nil},
	"walk over input": {files: regoV1(`
deny contains p if { some rc in input.resource_changes; walk(rc, [p, _]) }`), paths: nil},
	"json.marshal of an element": {files: regoV1(`
deny contains m if { some rc in input.resource_changes; m := json.marshal(rc) }`), paths: nil},
	"object.keys of an element": {files: regoV1(`
deny contains k if { some rc in input.resource_changes; some k in object.keys(rc) }`), paths: nil},
	"element compared whole": {files: regoV1(`
deny contains "dup" if { some i, rc in input.resource_changes; some j, x in input.resource_changes; i != j; rc == x }`), paths: nil},
	"with input as": {files: regoV1(`
inner contains rc.address if some rc in input.resource_changes
deny contains a if { some a in inner with input as {"resource_changes": [{"address": "x"}]} }`), paths: nil},
	"with data": {files: regoV1(`
f(rc) := rc.address
deny contains a if { some rc in input.resource_changes; a := f(rc) with data.x as 1 }`), paths: nil},
	"every over the changes": {files: regoV1(`
deny contains "all managed" if every rc in input.resource_changes { rc.mode == "managed" }`), paths: []string{"mode"}},
	"every over a member": {files: regoV1(`
deny contains "only creates" if { some rc in input.resource_changes; every a in rc.change.actions { a == "create" } }`), paths: []string{"change.actions"}},
	"v0 syntax with direct references": {files: map[string]string{"p.rego": `package p

deny[msg] {
	input.resource_changes[_].type == "x"
	msg := input.resource_changes[i].change.actions[_]
}
`}, paths: []string{"change.actions", "type"}},
	"comprehension of elements given to a builtin": {files: regoV1(`
deny contains m if { rcs := [rc | some rc in input.resource_changes; rc.type == "a"]; m := sprintf("%v", [rcs]) }`), paths: nil},
	"comprehension of elements counted and indexed": {files: regoV1(`
deny contains a if { rcs := [rc | some rc in input.resource_changes; rc.type == "a"]; count(rcs) > 1; a := rcs[0].address }`),
		paths: []string{"address", "type"}},
	"count of the changes only": {files: regoV1(`
deny contains "many" if count(input.resource_changes) > 3`), paths: []string{}},
	"element in an object and a set": {files: regoV1(`
deny contains {"msg": "x", "rc": rc} if { some rc in input.resource_changes; rc.type == "x" }`), paths: nil},
	"element as a rule value": {files: regoV1(`
first := input.resource_changes[0]
deny contains first.address if first`), paths: nil},
	"membership of an element": {files: regoV1(`
deny contains "in" if { some rc in input.resource_changes; rc in input.resource_changes }`), paths: nil},
	"not with a member": {files: regoV1(`
deny contains rc.address if { some rc in input.resource_changes; not rc.change.after.tags.owner }`), paths: []string{"address", "change.after.tags.owner", "change.after_sensitive"}},
	"drift too": {files: regoV1(`
deny contains d.address if { some d in input.resource_drift; d.change.actions == ["update"] }
deny contains rc.type if some rc in input.resource_changes`), paths: []string{"type"}, drift: []string{"address", "change.actions"}},
	"member with a number key": {files: regoV1(`
deny contains "first create" if { some rc in input.resource_changes; rc.change.actions[0] == "create" }`), paths: []string{"change.actions"}},
}

func regoV1(body string) map[string]string {
	return map[string]string{"p.rego": "package p\n\nimport rego.v1\n" + body + "\n"}
}

func loadElementFixture(t *testing.T, name string) *Set {
	t.Helper()
	return loadPolicyFiles(t, elementFixtures[name].files)
}

// neededPaths lists the paths of the tree's whole nodes, nil when the
// elements are kept whole.
func neededPaths(u inputUse, root string) []string {
	if u.all || u.elems == nil || u.elems[root] == nil || u.elems[root].whole {
		return nil
	}
	out := []string{}
	var walk func(n *fieldNode, prefix []string)
	walk = func(n *fieldNode, prefix []string) {
		if n.whole {
			out = append(out, strings.Join(prefix, "."))
			return
		}
		for name, c := range n.children {
			walk(c, append(prefix[:len(prefix):len(prefix)], name))
		}
	}
	walk(u.elems[root], nil)
	sort.Strings(out)
	return out
}

func TestElementAnalysis(t *testing.T) {
	for name, fx := range elementFixtures {
		t.Run(name, func(t *testing.T) {
			s := loadElementFixture(t, name)
			if diff := cmp.Diff(fx.paths, neededPaths(s.input, "resource_changes")); diff != "" {
				t.Errorf("needed paths of resource_changes (-want +got):\n%s", diff)
			}
			if fx.drift != nil {
				if diff := cmp.Diff(fx.drift, neededPaths(s.input, "resource_drift")); diff != "" {
					t.Errorf("needed paths of resource_drift (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestReadsChangeMember(t *testing.T) {
	tests := []struct {
		fixture     string
		path        []string
		member, all bool
	}{
		{"examples", nil, true, false},
		{"examples", []string{"address"}, true, true},
		{"examples", []string{"change"}, true, false},
		{"examples", []string{"change", "after"}, true, false},
		{"examples", []string{"change", "after", "tags"}, true, true},
		{"examples", []string{"change", "after", "tags", "owner"}, true, true},
		{"examples", []string{"change", "before"}, false, false},
		{"examples", []string{"provider_name"}, false, false},
		{"json.marshal of an element", []string{"change", "before"}, true, true},
		{"json.marshal of an element", nil, true, true},
		{"with input as", []string{"anything"}, true, true},
		{"count of the changes only", nil, true, false},
		{"count of the changes only", []string{"address"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+"/"+strings.Join(tt.path, "."), func(t *testing.T) {
			s := loadElementFixture(t, tt.fixture)
			if got := s.ReadsChangeMember(tt.path...); got != tt.member {
				t.Errorf("ReadsChangeMember = %v, want %v", got, tt.member)
			}
			if got := s.ReadsChangeWhole(tt.path...); got != tt.all {
				t.Errorf("ReadsChangeWhole = %v, want %v", got, tt.all)
			}
		})
	}
	t.Run("no policy reads changes", func(t *testing.T) {
		s, diags := Load(context.Background(), Options{Paths: []string{writeFiles(t, regoV1(`deny contains "x" if input.variables`))}})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if s.ReadsChangeMember() || s.ReadsChangeMember("address") || s.ReadsChangeWhole() {
			t.Error("a set that never reads resource_changes reads its members")
		}
	})
}

// randomPlan is a plan JSON whose resource changes (and drift) vary in
// everything the fixtures read and carry extra members they do not:
// nested objects, tags present, null or absent, sensitive markers,
// changes that are not objects, and twins that differ only in members
// no policy reads.
func randomPlan(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	value := func() map[string]any {
		v := map[string]any{"name": pick("a", "b", "c"), "size": r.IntN(6)}
		switch r.IntN(4) {
		case 0:
			v["tags"] = map[string]any{"owner": pick("me", "you"), "cost_center": "42"}
		case 1:
			v["tags"] = map[string]any{"owner": pick("me", false)}
		case 2:
			v["tags"] = nil
		}
		if r.IntN(2) == 0 {
			v["child"] = map[string]any{"child": map[string]any{"x": r.IntN(3)}, "list": []any{1, "two", nil}}
		}
		return v
	}
	change := func(i int) any {
		if r.IntN(40) == 0 {
			return pick("not an object", 3, nil, []any{"x"})
		}
		c := map[string]any{
			"address":       fmt.Sprintf("%s.r[%d]", pick("x", "a"), r.IntN(n/2+1)),
			"mode":          pick("managed", "managed", "data"),
			"type":          pick("x", "a", "null_resource", "aws_s3_bucket", "aws_db_instance", "aws_vpc"),
			"name":          "r",
			"index":         i,
			"provider_name": "registry.opentofu.org/hashicorp/aws",
		}
		if r.IntN(10) == 0 {
			c["address"] = pick("module.network.aws_vpc.main", "aws_route53_zone.z")
		}
		ch := map[string]any{
			"actions":         pick([]any{"no-op"}, []any{"create"}, []any{"update"}, []any{"delete"}, []any{"delete", "create"}, []any{"create", "delete"}, []any{"read"}),
			"before":          pick(nil, value()),
			"after":           pick(nil, value(), value()),
			"after_unknown":   map[string]any{"id": true},
			"after_sensitive": pick(map[string]any{}, map[string]any{"tags": map[string]any{"owner": true}}),
		}
		if r.IntN(15) == 0 {
			c["change"] = pick(nil, "odd")
		} else {
			c["change"] = ch
		}
		if r.IntN(3) == 0 {
			c["extra"] = map[string]any{"deep": map[string]any{"deeper": []any{r.IntN(9)}}}
		}
		return c
	}
	var changes, drift []any
	for i := range n {
		c := change(i)
		changes = append(changes, c)
		if m, ok := c.(map[string]any); ok && r.IntN(5) == 0 {
			twin := map[string]any{}
			for k, v := range m {
				twin[k] = v
			}
			twin["extra"] = "twin"
			changes = append(changes, twin)
		}
		if r.IntN(4) == 0 {
			drift = append(drift, change(i))
		}
	}
	b, err := json.Marshal(map[string]any{"format_version": "1.2", "resource_changes": changes, "resource_drift": drift, "variables": map[string]any{"v": map[string]any{"value": 1}}})
	if err != nil {
		panic(err)
	}
	return b
}

// TestElementPruningKeepsReports checks each fixture over recorded and
// random plans three ways: unpruned, top-level members only pruned, and
// fully pruned (the fast parser and, through invalid-for-it input, OPA's
// decoder); every report must be the same.
func TestElementPruningKeepsReports(t *testing.T) {
	var plans [][]byte
	plans = append(plans, recordedPlans(t)...)
	for seed := range uint64(12) {
		plans = append(plans, randomPlan(seed, 10+int(seed)*15))
	}
	plans = append(plans, generatedPlan(300))
	ctx := context.Background()
	for name := range elementFixtures {
		t.Run(name, func(t *testing.T) {
			s := loadElementFixture(t, name)
			topOnly := s.input.inputShape(false)
			fired := 0
			for i, plan := range plans {
				want, wantErr := s.check(ctx, plan, nil)
				for _, way := range []struct {
					name  string
					shape *inputShape
				}{{"top-level pruning", topOnly}, {"element pruning", s.input.shape}} {
					got, err := s.check(ctx, plan, way.shape)
					if (err != nil) != (wantErr != nil) {
						t.Fatalf("plan %d, %s: error %v, unpruned %v", i, way.name, err, wantErr)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("plan %d: report changed by %s (-unpruned +pruned):\n%s", i, way.name, diff)
					}
				}
				if want != nil && want.Summary.Passed != len(want.Results) {
					fired++
				}
			}
			if fired == 0 {
				t.Errorf("no plan made any policy of the set fire: the comparison proves little")
			}
		})
	}
}
