package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
)

const scenariosDir = "../testdata/conformance/scenarios"

// scenarioSteps lists every recorded step directory of the repository's
// copy of the conformance scenarios.
func scenarioSteps(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(scenariosDir, "*", "steps", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no conformance scenarios under %s", scenariosDir)
	}
	return dirs
}

func TestLoadConformanceScenarios(t *testing.T) {
	for _, dir := range scenarioSteps(t) {
		name := strings.TrimPrefix(dir, scenariosDir+"/")
		t.Run(name, func(t *testing.T) {
			cfg, diags := Load(os.DirFS(dir), ".")
			allowed := expectedErrorSummaries(t, filepath.Dir(filepath.Dir(dir)))
			for _, d := range diags {
				if d.Severity == hcl.DiagError && !allowed[d.Summary] {
					t.Errorf("unexpected error: %s", d.Error())
				}
			}
			if cfg.Root == nil || len(cfg.Digest) != 64 {
				t.Fatalf("no root module or digest: %+v", cfg)
			}
		})
	}
}

func loadInline(t *testing.T, files map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return Load(fsys, ".")
}

func mustLoad(t *testing.T, files map[string]string) *Config {
	t.Helper()
	cfg, diags := loadInline(t, files)
	if diags.HasErrors() {
		t.Fatalf("unexpected errors: %s", diags.Error())
	}
	return cfg
}

func TestLoadModuleTree(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
module "outer" {
  source = "./outer"
  n      = 2
}`,
		"outer/main.tf": `
variable "n" {}
module "inner" {
  source = "../inner"
  count  = var.n
  i      = count.index
}`,
		"inner/main.tf": `
variable "i" { type = number }
resource "terraform_data" "r" { input = var.i }`,
	})
	var got []string
	for _, m := range cfg.Modules() {
		got = append(got, m.Path.String()+"@"+m.SourceDir)
	}
	want := []string{"@.", "module.outer@outer", "module.outer.module.inner@inner"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modules (-want +got):\n%s", diff)
	}
	inner := cfg.Descendant(addrs.Module{"outer", "inner"})
	if inner == nil || inner.ManagedResources["terraform_data.r"] == nil {
		t.Fatalf("inner module or its resource missing")
	}
	if cfg.Descendant(addrs.Module{"nope"}) != nil {
		t.Errorf("Descendant of an unknown call should be nil")
	}
	if _, ok := cfg.Files["inner/main.tf"]; !ok {
		t.Errorf("Files lacks inner/main.tf: %v", slices.Sorted(maps.Keys(cfg.Files)))
	}
}

func TestDigestChangesWithContent(t *testing.T) {
	a := mustLoad(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	b := mustLoad(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	c := mustLoad(t, map[string]string{"main.tf": `resource "terraform_data" "b" {}`})
	if a.Digest != b.Digest {
		t.Errorf("same content, different digests")
	}
	if a.Digest == c.Digest {
		t.Errorf("different content, same digest")
	}
}

func TestRemoteModuleSourceRejected(t *testing.T) {
	_, diags := loadInline(t, map[string]string{"main.tf": `
module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}`})
	if len(diags) != 1 || diags[0].Summary != "Module source not supported" || diags[0].Subject.Start.Line != 3 {
		t.Fatalf("want one 'Module source not supported' at line 3, got %v", diags)
	}
}

func TestProviderForResource(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "example.com/acme/aws" }
  }
}
provider "aws" {
  alias = "west"
}
resource "terraform_data" "a" {}
resource "aws_instance" "b" {
  provider = aws.west
}
resource "random_id" "c" {}
`})
	m := cfg.Root
	tests := []struct {
		res      string
		provider string
		ref      string
	}{
		{"terraform_data.a", "terraform.io/builtin/terraform", "terraform"},
		{"aws_instance.b", "example.com/acme/aws", "aws.west"},
		{"random_id.c", "registry.opentofu.org/hashicorp/random", "random"},
	}
	for _, tt := range tests {
		t.Run(tt.res, func(t *testing.T) {
			p, ref := m.ProviderForResource(m.ManagedResources[tt.res])
			if p.String() != tt.provider || ref.String() != tt.ref {
				t.Errorf("got %s %s, want %s %s", p, ref.String(), tt.provider, tt.ref)
			}
		})
	}
}

// expectedErrorSummaries reads the error summaries OpenTofu reported for a
// scenario; a static error we find earlier than OpenTofu is fine as long
// as it is one of those.
func expectedErrorSummaries(t *testing.T, scenario string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	data, err := os.ReadFile(filepath.Join(scenario, "expected", "errors.txt"))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		if s, ok := strings.CutPrefix(line, "error: "); ok {
			out[strings.TrimSpace(s)] = true
		}
	}
	return out
}
