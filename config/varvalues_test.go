package config

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestCollectVariableValuesPrecedence(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
variable "a" {}
variable "b" {}
variable "c" {}
variable "d" {}
variable "e" {}
variable "f" { type = list(number) }
variable "g" { type = number }
`)},
		"terraform.tfvars":      {Data: []byte("b = \"tfvars\"\nc = \"tfvars\"\nd = \"tfvars\"\ne = \"tfvars\"\n")},
		"terraform.tfvars.json": {Data: []byte(`{"c": "tfvars.json", "d": "tfvars.json", "e": "tfvars.json"}`)},
		"b.auto.tfvars":         {Data: []byte("d = \"b.auto\"\ne = \"b.auto\"\nundeclared = 1\n")},
		"a.auto.tfvars.json":    {Data: []byte(`{"d": "a.auto", "e": "a.auto"}`)},
		"extra.tfvars":          {Data: []byte(`e = "var-file"`)},
	}
	cfg, diags := Load(fsys, ".")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cli := []VarSource{
		{Kind: "file", File: "extra.tfvars"},
		{Kind: "cli", Name: "f", Value: "[1, 2]"},
		{Kind: "cli", Name: "g", Value: "7"},
	}
	env := []string{"TF_VAR_a=env", "TF_VAR_b=env", "TF_VAR_nope=1", "PATH=/bin"}
	vals, diags := CollectVariableValues(fsys, ".", cfg.Root, cli, env)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(diags) != 1 || diags[0].Summary != "Value for undeclared variable" || diags[0].Subject.Filename != "b.auto.tfvars" {
		t.Errorf("want one warning for the undeclared variable in b.auto.tfvars, got %v", diags)
	}
	got := map[string]string{}
	for name, v := range vals {
		got[name] = v.SourceType + ":" + v.Value.GoString()
	}
	want := map[string]string{
		"a": "env:" + cty.StringVal("env").GoString(),
		"b": "file:" + cty.StringVal("tfvars").GoString(),
		"c": "file:" + cty.StringVal("tfvars.json").GoString(),
		// *.auto.tfvars files in name order: b.auto beats a.auto.
		"d": "file:" + cty.StringVal("b.auto").GoString(),
		"e": "file:" + cty.StringVal("var-file").GoString(),
		// Non-primitive types are parsed as HCL; primitive ones stay text.
		"f": "cli:" + cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}).GoString(),
		"g": "cli:" + cty.StringVal("7").GoString(),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUndeclaredCLIVariableIsError(t *testing.T) {
	fsys := fstest.MapFS{"main.tf": {Data: []byte(`variable "a" {}`)}}
	cfg, _ := Load(fsys, ".")
	_, diags := CollectVariableValues(fsys, ".", cfg.Root, []VarSource{{Kind: "cli", Name: "b", Value: "1"}}, nil)
	if !diags.HasErrors() || diags[0].Summary != "Value for undeclared variable" {
		t.Errorf("got %v", diags)
	}
	_, diags = CollectVariableValues(fsys, ".", cfg.Root, []VarSource{{Kind: "file", File: "missing.tfvars"}}, nil)
	if !diags.HasErrors() {
		t.Errorf("a missing -var-file should be an error")
	}
}
