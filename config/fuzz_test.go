package config

import (
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func FuzzLoad(f *testing.F) {
	seeds := []string{
		`resource "terraform_data" "a" { input = var.x }`,
		`variable "x" { type = object({ a = optional(string, "d") }) }`,
		"moved {\n  from = module.a[0].t.n\n  to = t.n[\"k\"]\n}",
		"removed {\n from = module.a\n lifecycle { destroy = true }\n}",
		"import {\n to = t.n[each.key]\n id = each.value\n for_each = {}\n}",
		"resource \"t\" \"n\" {\n lifecycle {\n ignore_changes = [\"*\", a]\n replace_triggered_by = [t.m[count.index].x]\n }\n}",
		`module "m" { source = "./m" }`,
		`output "o" { value = module.m["x"].out }`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fsys := fstest.MapFS{"main.tf": {Data: []byte(src)}}
		cfg, _ := Load(fsys, ".")
		if cfg == nil || cfg.Root == nil {
			t.Fatal("Load returned no root module")
		}
		if _, err := MarshalConfigurationJSON(cfg); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		for _, r := range cfg.Root.ManagedResources {
			ReferencesInBody(r.Config)
		}
		// Format promises idempotence only for source that parses.
		if _, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos); diags.HasErrors() {
			return
		}
		out := Format([]byte(src))
		if again := Format(out); string(again) != string(out) {
			t.Fatalf("Format not idempotent:\n%q\n%q", out, again)
		}
	})
}
