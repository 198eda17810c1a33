package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
)

func refStrings(t *testing.T, refs []*addrs.Reference) []string {
	t.Helper()
	var out []string
	for _, r := range refs {
		out = appendReferenceStrings(out, r)
	}
	return out
}

func TestReferencesInExpr(t *testing.T) {
	tests := []struct {
		expr string
		want []string // with every shorter prefix, as the JSON plan lists them
	}{
		{`"constant"`, nil},
		{`var.a`, []string{"var.a"}},
		{`terraform_data.a.output`, []string{"terraform_data.a.output", "terraform_data.a"}},
		{`terraform_data.a[0].output["k"]`, []string{`terraform_data.a[0].output["k"]`, "terraform_data.a[0].output", "terraform_data.a[0]", "terraform_data.a"}},
		{`data.terraform_remote_state.s.outputs.v`, []string{"data.terraform_remote_state.s.outputs.v", "data.terraform_remote_state.s.outputs", "data.terraform_remote_state.s"}},
		{`module.m["x"].out`, []string{`module.m["x"].out`, `module.m["x"]`}},
		{`module.m.out.id`, []string{"module.m.out.id", "module.m.out", "module.m"}},
		{`module.m[1]`, []string{"module.m[1]", "module.m"}},
		{`[for k, v in module.m : v.out]`, []string{"module.m"}},
		{`"${local.a}-${count.index}-${each.key}"`, []string{"local.a", "count.index", "each.key"}},
		{`length(path.module) + terraform_data.a[count.index].x`, []string{"path.module", "terraform_data.a", "count.index"}},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tt.expr), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			refs, diags := ReferencesInExpr(expr)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.want, refStrings(t, refs)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReferencesInBody(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  count    = var.n
  provider = terraform.other
  input    = var.x
  depends_on = [terraform_data.dep]
  nested {
    value = local.y
  }
  dynamic "setting" {
    for_each = var.settings
    content {
      name  = setting.value.name
      other = local.z
    }
  }
  dynamic "rule" {
    for_each = var.rules
    iterator = r
    content {
      port = r.key
    }
  }
  lifecycle {
    replace_triggered_by = [terraform_data.dep]
  }
  connection {
    host = self.id
  }
}
variable "n" {}
variable "x" {}
variable "settings" {}
variable "rules" {}
locals {
  y = 1
  z = 2
}
resource "terraform_data" "dep" {}
`})
	r := cfg.Root.ManagedResources["terraform_data.a"]
	refs, diags := ReferencesInBody(r.Config)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, ref := range refs {
		got = append(got, ref.Subject.String())
	}
	// Meta-arguments are not part of the body; dynamic iterators are not references.
	want := []string{"var.x", "local.y", "var.settings", "local.z", "var.rules"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
