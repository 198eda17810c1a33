package engine_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
)

func TestImportBlocks(t *testing.T) {
	tests := []struct {
		name    string
		tf      string
		want    []string
		wantErr string
	}{
		{
			name: "the imported object is the prior of the plan",
			tf: `
resource "terraform_data" "a" { input = "x" }
import {
  to = terraform_data.a
  id = "imported-1"
}`,
			want: []string{"terraform_data.a: Update importing imported-1"},
		},
		{
			name: "for_each with expressions in the target key",
			tf: `
locals { ids = { one = "id-1", two = "id-2" } }
resource "terraform_data" "a" {
  for_each = local.ids
}
import {
  for_each = local.ids
  to       = terraform_data.a[each.key]
  id       = each.value
}`,
			want: []string{`terraform_data.a["one"]: NoOp importing id-1`, `terraform_data.a["two"]: NoOp importing id-2`},
		},
		{
			name: "a target instance without configuration",
			tf: `
resource "terraform_data" "a" {
  count = 1
}
import {
  to = terraform_data.a[5]
  id = "x"
}`,
			wantErr: "Configuration for import target does not exist",
		},
		{
			name: "two imports of one instance",
			tf: `
resource "terraform_data" "a" {}
import {
  to = terraform_data.a
  id = "x"
}
import {
  to = terraform_data.a
  id = "y"
}`,
			wantErr: `Duplicate import configuration for "terraform_data.a"`,
		},
		{
			name: "an id that is not known",
			tf: `
resource "terraform_data" "src" {}
resource "terraform_data" "a" {}
import {
  to = terraform_data.a
  id = terraform_data.src.id
}`,
			wantErr: "Invalid import id argument",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newDataRun(t)
			if tt.wantErr != "" {
				_, _, diags := r.plan(tt.tf, engine.PlanOpts{})
				if diff := cmp.Diff([]string{tt.wantErr}, summaries(diags, hcl.DiagError)); diff != "" {
					t.Errorf("errors (-want +got):\n%s", diff)
				}
				return
			}
			p, _ := r.run(tt.tf, engine.PlanOpts{})
			if diff := cmp.Diff(tt.want, actions(p)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			// Once in state the import blocks have nothing left to do.
			_, p2, diags := r.plan(tt.tf, engine.PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			for _, c := range p2.Changes {
				if c.Importing != nil {
					t.Errorf("%s imported again", c.Addr)
				}
			}
		})
	}
}

func TestEngineImport(t *testing.T) {
	const tf = `
resource "terraform_data" "a" { input = "x" }
resource "terraform_data" "other" { input = "o" }
`
	r := newDataRun(t)
	fsys := fstest.MapFS{"main.tf": {Data: []byte(tf)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r.eng.FS = fsys
	addr, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a")
	st, diags := r.eng.Import(context.Background(), cfg, r.state, addr, "remote-7", engine.PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ri := st.ResourceInstance(addr)
	if ri == nil || ri.Current == nil {
		t.Fatal("the imported object is not in state")
	}
	other, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.other")
	if st.ResourceInstance(other) != nil {
		t.Error("import created an unrelated object")
	}
	_, diags = r.eng.Import(context.Background(), cfg, st, addr, "remote-7", engine.PlanOpts{})
	if diff := cmp.Diff([]string{"Resource already managed by tenet"}, summaries(diags, hcl.DiagError)); diff != "" {
		t.Errorf("errors on a second import (-want +got):\n%s", diff)
	}
	missing, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.nope")
	_, diags = r.eng.Import(context.Background(), cfg, st, missing, "x", engine.PlanOpts{})
	if diff := cmp.Diff([]string{"Resource not declared"}, summaries(diags, hcl.DiagError)); diff != "" {
		t.Errorf("errors for an undeclared resource (-want +got):\n%s", diff)
	}
}
