package config

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

func traversalStrings(ts []hcl.Traversal) []string {
	var out []string
	for _, t := range ts {
		s := ""
		for i, step := range t {
			switch st := step.(type) {
			case hcl.TraverseRoot:
				s += st.Name
			case hcl.TraverseAttr:
				if i > 0 {
					s += "."
				}
				s += st.Name
			case hcl.TraverseIndex:
				s += "[" + compactKey(st.Key) + "]"
			}
		}
		out = append(out, s)
	}
	return out
}

func TestLifecycleDecoding(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [input, triggers_replace[0], tags["Name"]]
    replace_triggered_by  = [terraform_data.b.output]
  }
}
resource "terraform_data" "b" {
  lifecycle {
    prevent_destroy = false
    ignore_changes  = all
  }
}
resource "terraform_data" "c" {}
`, "more.tf.json": `{
  "resource": {"terraform_data": {"j": {
    "input": "${terraform_data.a.output}",
    "lifecycle": {"ignore_changes": ["input"], "replace_triggered_by": ["terraform_data.b"], "create_before_destroy": true}
  }}}
}`})
	m := cfg.Root
	a := m.ManagedResources["terraform_data.a"].Managed
	if !a.CreateBeforeDestroy || !a.CreateBeforeDestroySet || a.PreventDestroySet {
		t.Errorf("a: cbd=%v set=%v pdset=%v", a.CreateBeforeDestroy, a.CreateBeforeDestroySet, a.PreventDestroySet)
	}
	if diff := cmp.Diff([]string{"input", "triggers_replace[0]", `tags["Name"]`}, traversalStrings(a.IgnoreChanges)); diff != "" {
		t.Errorf("ignore_changes (-want +got):\n%s", diff)
	}
	if len(a.ReplaceTriggeredBy) != 1 {
		t.Errorf("replace_triggered_by: %d entries", len(a.ReplaceTriggeredBy))
	}
	b := m.ManagedResources["terraform_data.b"].Managed
	if !b.IgnoreAllChanges || b.PreventDestroy || !b.PreventDestroySet {
		t.Errorf("b: all=%v pd=%v pdset=%v", b.IgnoreAllChanges, b.PreventDestroy, b.PreventDestroySet)
	}
	if c := m.ManagedResources["terraform_data.c"].Managed; c.CreateBeforeDestroySet || c.IgnoreAllChanges {
		t.Errorf("c has lifecycle settings it never declared")
	}
	j := m.ManagedResources["terraform_data.j"]
	if j == nil {
		t.Fatal("JSON resource missing")
	}
	if diff := cmp.Diff([]string{"input"}, traversalStrings(j.Managed.IgnoreChanges)); diff != "" {
		t.Errorf("JSON ignore_changes (-want +got):\n%s", diff)
	}
	if !j.Managed.CreateBeforeDestroy || len(j.Managed.ReplaceTriggeredBy) != 1 {
		t.Errorf("JSON lifecycle not decoded: %+v", j.Managed)
	}
	refs, _ := ReferencesInBody(j.Config)
	if len(refs) != 1 || refs[0].Subject.String() != "terraform_data.a" {
		t.Errorf("JSON body references: %v", refs)
	}
}

func TestVariableDecoding(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
variable "req" {}
variable "opt" {
  type = object({ a = string, b = optional(number, 3) })
  default = { a = "x" }
  sensitive = true
  nullable  = false
  description = "d"
}
variable "num" {
  type    = number
  default = "5"
}`})
	vars := cfg.Root.Variables
	if !vars["req"].Required() || vars["req"].Type != cty.DynamicPseudoType || !vars["req"].Nullable {
		t.Errorf("req: %+v", vars["req"])
	}
	opt := vars["opt"]
	wantDefault := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(3)})
	if !opt.Default.RawEquals(wantDefault) {
		t.Errorf("opt default = %#v, want %#v", opt.Default, wantDefault)
	}
	if !opt.Sensitive || opt.Nullable || opt.Description != "d" || opt.TypeDefaults == nil {
		t.Errorf("opt flags: %+v", opt)
	}
	if !opt.Type.Equals(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})) {
		t.Errorf("opt type = %#v", opt.Type)
	}
	if !vars["num"].Default.RawEquals(cty.NumberIntVal(5)) {
		t.Errorf("num default not converted: %#v", vars["num"].Default)
	}
}

func TestRefactoringBlocks(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
resource "terraform_data" "b" {}
moved {
  from = terraform_data.a
  to   = terraform_data.b[0]
}
moved {
  from = module.x
  to   = module.y["k"]
}
removed {
  from = module.old.terraform_data.z
  lifecycle {
    destroy = true
  }
}
import {
  to = terraform_data.b
  id = "b"
}
import {
  for_each = toset(["x"])
  to       = module.m[each.key].terraform_data.c[each.key]
  id       = each.key
}`})
	m := cfg.Root
	type mv struct{ From, FromKind, To, ToKind string }
	var got []mv
	for _, x := range m.Moved {
		got = append(got, mv{x.From.String(), x.From.Kind.String(), x.To.String(), x.To.Kind.String()})
	}
	want := []mv{
		{"terraform_data.a", "resource", "terraform_data.b[0]", "resource instance"},
		{"module.x", "module call", `module.y["k"]`, "module instance"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("moved (-want +got):\n%s", diff)
	}
	rm := m.Removed[0]
	if rm.From.String() != "module.old.terraform_data.z" || !rm.Destroy || !rm.DestroySet {
		t.Errorf("removed: %s destroy=%v set=%v", rm.From, rm.Destroy, rm.DestroySet)
	}
	if got := m.Import[0].ToAddr; got == nil || got.String() != "terraform_data.b" {
		t.Errorf("static import target = %v", got)
	}
	dyn := m.Import[1]
	if dyn.ToAddr != nil || dyn.ForEach == nil {
		t.Errorf("dynamic import should have no static address and a for_each")
	}
	wantRes := addrs.ConfigResource{Module: addrs.Module{"m"}, Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "c"}}
	if !dyn.ToResource.Equal(wantRes) {
		t.Errorf("dynamic import resource = %s, want %s", dyn.ToResource, wantRes)
	}
}

func TestImportOnlyInRoot(t *testing.T) {
	_, diags := loadInline(t, map[string]string{
		"main.tf": `module "m" { source = "./m" }`,
		"m/main.tf": `
resource "terraform_data" "a" {}
import {
  to = terraform_data.a
  id = "x"
}`,
	})
	if len(diags) != 1 || diags[0].Summary != "Import blocks are only allowed in the root module" || diags[0].Subject.Filename != "m/main.tf" {
		t.Fatalf("got %v", diags)
	}
}

func TestModuleCallDecoding(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
provider "aws" {
  alias = "west"
}
module "m" {
  source     = "./m"
  for_each   = toset(["a"])
  x          = each.key
  depends_on = [module.n]
  providers  = { aws = aws.west }
}
module "n" {
  source = "./m"
  x      = 1
}`,
		"m/main.tf": `variable "x" {}`,
	})
	mc := cfg.Root.ModuleCalls["m"]
	if mc.ForEach == nil || mc.Count != nil || len(mc.DependsOn) != 1 {
		t.Errorf("meta-arguments: %+v", mc)
	}
	if len(mc.Providers) != 1 || mc.Providers[0].InChild.String() != "aws" || mc.Providers[0].InParent.String() != "aws.west" {
		t.Errorf("providers: %+v", mc.Providers)
	}
	attrs, diags := mc.Config.JustAttributes()
	if diags.HasErrors() || len(attrs) != 1 || attrs["x"] == nil {
		t.Errorf("inputs should be just x, got %v %v", slices.Sorted(maps.Keys(attrs)), diags)
	}
}
