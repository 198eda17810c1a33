package config

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// givenVars is a StaticInputs.Variable that knows the values in vals and
// the declared defaults, like the CLI without a terminal.
func givenVars(vals map[string]string) func(*Module, *Variable) (cty.Value, hcl.Diagnostics) {
	return func(_ *Module, v *Variable) (cty.Value, hcl.Diagnostics) {
		if s, ok := vals[v.Name]; ok {
			return cty.StringVal(s), nil
		}
		if !v.Required() {
			return v.Default, nil
		}
		return cty.NilVal, hcl.Diagnostics{NoInputForVariable(v)}
	}
}

func diagTexts(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Summary
		if d.Detail != "" {
			s += ": " + d.Detail
		}
		out = append(out, s)
	}
	return out
}

func TestStaticModuleSources(t *testing.T) {
	child := "variable \"which\" {}\nmodule \"g\" { source = \"./${var.which}\" }\n"
	tests := []struct {
		name      string
		main      string
		vars      map[string]string
		workspace string
		call      addrs.Module // whose source is checked
		want      string
		wantDiags []string
	}{
		{
			name: "literal",
			main: `module "m" { source = "./m" }`,
			call: addrs.Module{"m"}, want: "./m",
		},
		{
			name: "variable default through a local",
			main: "variable \"d\" { default = \"m\" }\nlocals { s = \"./${var.d}\" }\nmodule \"m\" { source = local.s }",
			call: addrs.Module{"m"}, want: "./m",
		},
		{
			name: "given value, functions and workspace",
			main: "variable \"d\" {}\nmodule \"m\" { source = \"./${lower(var.d)}${terraform.workspace == \"w\" ? \"\" : \"x\"}\" }",
			vars: map[string]string{"d": "M"}, workspace: "w",
			call: addrs.Module{"m"}, want: "./m",
		},
		{
			name: "child variable from the parent's argument",
			main: "variable \"w\" { default = \"a\" }\nmodule \"c\" {\n  source = \"./c\"\n  which  = var.w\n}",
			call: addrs.Module{"c", "g"}, want: "./a",
		},
		{
			name:      "no value",
			main:      "variable \"d\" {}\nmodule \"m\" { source = var.d }",
			wantDiags: []string{"Failed to request input from user for variable var.d", "Unable to compute static value: module.m.source depends on var.d which is not available"},
		},
		{
			name: "resource and module output",
			main: "resource \"terraform_data\" \"r\" {}\nmodule \"m\" { source = \"${terraform_data.r.id}${module.k.out}\" }",
			wantDiags: []string{
				"Dynamic value in static context: Unable to use terraform_data.r in static context, which is required by module.m.source",
				"Module output not supported in static context: Unable to use module.k.out in static context, which is required by module.m.source",
			},
		},
		{
			name: "cycle",
			main: "locals {\n  a = local.b\n  b = local.a\n}\nmodule \"m\" { source = local.a }",
			wantDiags: []string{
				"Circular reference: local.a is self referential",
				"Unable to compute static value: local.a depends on local.b which is not available",
				"Unable to compute static value: module.m.source depends on local.a which is not available",
			},
		},
		{
			name:      "sensitive",
			main:      "variable \"s\" {\n  default   = \"./m\"\n  sensitive = true\n}\nmodule \"m\" { source = var.s }",
			wantDiags: []string{"Sensitive value not allowed: Sensitive values, or values derived from sensitive values, cannot be used as module.m.source."},
		},
		{
			name: "parent argument from a resource",
			main: "resource \"terraform_data\" \"r\" {}\nmodule \"c\" {\n  source = \"./c\"\n  which  = terraform_data.r.id\n}",
			wantDiags: []string{
				"Dynamic value in static context: Unable to use terraform_data.r in static context, which is required by module.c:var.which",
				"Unable to compute static value: module.c:module.g.source depends on module.c:var.which which is not available",
			},
		},
		{
			name: "missing argument",
			main: "module \"c\" { source = \"./c\" }",
			wantDiags: []string{
				"Missing required variable in module call",
				"Unable to compute static value: module.c:module.g.source depends on module.c:var.which which is not available",
				"Missing required argument: The argument \"which\" is required, but no definition was found.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"main.tf":     {Data: []byte(tt.main)},
				"m/main.tf":   {Data: []byte("")},
				"c/main.tf":   {Data: []byte(child)},
				"c/a/main.tf": {Data: []byte("")},
			}
			cfg, diags := LoadWith(fsys, ".", LoadOptions{Static: StaticInputs{Variable: givenVars(tt.vars), Workspace: tt.workspace}})
			if diff := cmp.Diff(tt.wantDiags, diagTexts(diags)); diff != "" {
				t.Fatalf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.call == nil {
				return
			}
			parent := cfg.Descendant(tt.call.Parent())
			if parent == nil {
				t.Fatalf("module %s not loaded", tt.call.Parent())
			}
			if got := parent.ModuleCalls[tt.call[len(tt.call)-1]].SourceAddr; got != tt.want {
				t.Errorf("source = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStaticVersion(t *testing.T) {
	dir := t.TempDir()
	src := "variable \"v\" { default = null }\nvariable \"w\" { default = \"~> 1.0\" }\nmodule \"a\" {\n  source  = \"ns/a/aws\"\n  version = var.v\n}\nmodule \"b\" {\n  source  = \"ns/b/aws\"\n  version = var.w\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := ReadModule(dir, ".", addrs.RootModule, nil, nil, StaticInputs{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a, b := m.ModuleCalls["a"], m.ModuleCalls["b"]
	if a.Version != "" || a.VersionAttr != nil {
		t.Errorf("a null version should be no version, got %q", a.Version)
	}
	if b.Version != "~> 1.0" {
		t.Errorf("b version = %q", b.Version)
	}
}

func TestStaticBody(t *testing.T) {
	tests := []struct {
		name      string
		main      string
		want      map[string]cty.Value
		wantDiags []string
	}{
		{
			name: "variables, locals and path",
			main: "variable \"env\" { default = \"dev\" }\nlocals { dir = \"s/${var.env}\" }",
			want: map[string]cty.Value{"path": cty.StringVal("s/dev/default.tfstate")},
		},
		{
			name:      "sensitive",
			main:      "variable \"env\" {\n  default   = \"dev\"\n  sensitive = true\n}\nlocals { dir = var.env }",
			want:      map[string]cty.Value{"path": cty.StringVal("dev/default.tfstate")},
			wantDiags: []string{"Backend config contains sensitive values: The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply sensitive credentials via backend specific environment variables"},
		},
		{
			name:      "unavailable local",
			main:      "variable \"env\" {}\nlocals { dir = var.env }",
			wantDiags: []string{"Failed to request input from user for variable var.env", "Unable to compute static value: local.dir depends on var.env which is not available", "Unable to compute static value: backend.local depends on local.dir which is not available"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.main + "\nterraform {\n  backend \"local\" {\n    path = \"${local.dir}/${terraform.workspace}.tfstate\"\n  }\n}\n"
			cfg, diags := LoadWith(fstest.MapFS{"main.tf": {Data: []byte(src)}}, ".", LoadOptions{Static: StaticInputs{Variable: givenVars(nil)}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			f := cfg.Files["main.tf"]
			content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
			inner, _, _ := content.Blocks[0].Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "backend", LabelNames: []string{"type"}}}})
			b := inner.Blocks[0]
			got, diags := cfg.Root.StaticBody(b.Body, "backend.local", b.DefRange)
			if diff := cmp.Diff(tt.wantDiags, diagTexts(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" && tt.want != nil {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}
