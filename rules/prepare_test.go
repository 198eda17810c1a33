package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/internal/provenance"
)

func TestPrepareIgnorePaths(t *testing.T) {
	e := newTestEngine(t, nil)
	tests := []struct {
		name string
		in   PrepareInstance
		want Preparation
	}{
		{
			name: "attribute, index and map key paths come back in step form",
			in:   PrepareInstance{Address: "a.b", HasPrior: true, IgnoreChanges: stepPaths([]any{"tags", attrpath.MapKey("Name")}, []any{"list", 1, "x"})},
			want: Preparation{
				Ignore:     stepPaths([]any{"list", 1, "x"}, []any{"tags", attrpath.MapKey("Name")}),
				Provenance: []provenance.Rule{e.fired("tenet.prepare.ignore_changes")},
			},
		},
		{
			name: "all",
			in:   PrepareInstance{Address: "a.b", HasPrior: true, IgnoreAll: true},
			want: Preparation{IgnoreAll: true, Provenance: []provenance.Rule{e.fired("tenet.prepare.ignore_all")}},
		},
		{
			name: "no prior object: nothing ignored",
			in:   PrepareInstance{Address: "a.b", IgnoreChanges: stepPaths([]any{"input"}), IgnoreAll: true},
			want: Preparation{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Prepare(context.Background(), Run{Mode: ModeNormal}, []PrepareInstance{tt.in})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]Preparation{tt.want}, got, cmpopts.IgnoreUnexported(Preparation{}), asSteps); diff != "" {
				t.Errorf("Prepare (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrepareLargeBatchKeepsOrder(t *testing.T) {
	e := newTestEngine(t, nil)
	batch := make([]PrepareInstance, 2500)
	for i := range batch {
		batch[i] = PrepareInstance{Address: fmt.Sprintf("a.b[%d]", i), HasPrior: true, IgnoreAll: i%3 == 0}
	}
	got, err := e.Prepare(context.Background(), Run{Mode: ModeNormal}, batch)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range got {
		if p.IgnoreAll != (i%3 == 0) {
			t.Fatalf("instance %d: IgnoreAll = %v", i, p.IgnoreAll)
		}
	}
}

func TestTriggers(t *testing.T) {
	e := newTestEngine(t, nil)
	tests := []struct {
		name string
		refs []TriggerRef
		want Trigger
	}{
		{
			name: "update of the referenced instance fires",
			refs: []TriggerRef{{Ref: "a.x", Actions: []string{"update"}}},
			want: Trigger{Triggered: true, Ref: "a.x", Provenance: []provenance.Rule{e.fired("tenet.triggers.object_changed")}},
		},
		{
			name: "create never fires",
			refs: []TriggerRef{{Ref: "a.x", Actions: []string{"create"}}},
		},
		{
			name: "unchanged attribute of an updated object does not fire",
			refs: []TriggerRef{{Ref: "a.x.id", Actions: []string{"update"}, HasPath: true}},
		},
		{
			name: "the first firing reference is reported",
			refs: []TriggerRef{
				{Ref: "a.x", Actions: []string{"no-op"}},
				{Ref: "a.y.id", Actions: []string{"delete-then-create"}, HasPath: true, PathChanged: true},
				{Ref: "a.z", Actions: []string{"update"}},
			},
			want: Trigger{Triggered: true, Ref: "a.y.id", Provenance: []provenance.Rule{e.fired("tenet.triggers.attribute_changed")}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Triggers(context.Background(), Run{Mode: ModeNormal}, []TriggerInstance{{Address: "b.c", References: tt.refs}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]Trigger{tt.want}, got); diff != "" {
				t.Errorf("Triggers (-want +got):\n%s", diff)
			}
		})
	}
}
