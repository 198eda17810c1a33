package config

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestOverrideFiles(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
variable "v" {
  type    = string
  default = "base"
}
locals {
  l = "base"
}
resource "terraform_data" "a" {
  input = var.v
  triggers_replace = ["keep"]
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [input]
  }
}
output "o" {
  value = local.l
}`,
		"main_override.tf": `
variable "v" {
  default = "over"
}
locals {
  l = "over"
}
resource "terraform_data" "a" {
  input = local.l
  lifecycle {
    prevent_destroy = true
  }
}`,
		"override.tf.json": `{"output": {"o": {"sensitive": true}}}`,
	})
	m := cfg.Root
	v := m.Variables["v"]
	if !v.Default.RawEquals(cty.StringVal("over")) || v.Type != cty.String {
		t.Errorf("variable: default %#v type %#v", v.Default, v.Type)
	}
	if val, _ := m.Locals["l"].Expr.Value(nil); !val.RawEquals(cty.StringVal("over")) {
		t.Errorf("local = %#v", val)
	}
	r := m.ManagedResources["terraform_data.a"]
	lc := r.Managed
	if !lc.CreateBeforeDestroy || !lc.PreventDestroy || len(lc.IgnoreChanges) != 1 {
		t.Errorf("lifecycle not merged: %+v", lc)
	}
	refs, _ := ReferencesInBody(r.Config)
	var got []string
	for _, ref := range refs {
		got = append(got, ref.Subject.String())
	}
	if diff := cmp.Diff([]string{"local.l"}, got); diff != "" {
		t.Errorf("body references (-want +got):\n%s", diff)
	}
	attrs, _ := r.Config.JustAttributes()
	if diff := cmp.Diff([]string{"input", "triggers_replace"}, slices.Sorted(maps.Keys(attrs))); diff != "" {
		t.Errorf("merged body attributes (-want +got):\n%s", diff)
	}
	if o := m.Outputs["o"]; !o.Sensitive || o.Expr == nil {
		t.Errorf("output not merged: %+v", o)
	}
}

func TestOverrideWithoutBase(t *testing.T) {
	_, diags := loadInline(t, map[string]string{
		"main.tf":       `resource "terraform_data" "a" {}`,
		"x_override.tf": `resource "terraform_data" "b" {}`,
	})
	if len(diags) != 1 || diags[0].Summary != "Missing base resource to override" {
		t.Errorf("got %v", diags)
	}
}
