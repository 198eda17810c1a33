package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
)

// TestConfigurationJSONMatchesOpenTofu compares our `configuration` object
// with the one OpenTofu recorded for the same step of each scenario.
func TestConfigurationJSONMatchesOpenTofu(t *testing.T) {
	plans, _ := filepath.Glob(filepath.Join(scenariosDir, "*", "expected", "plan.raw.json"))
	more, _ := filepath.Glob(filepath.Join(scenariosDir, "*", "expected", "*", "plan.raw.json"))
	plans = append(plans, more...)
	if len(plans) == 0 {
		t.Fatal("no conformance scenarios under " + scenariosDir)
	}
	for _, planFile := range plans {
		expectedDir := filepath.Dir(planFile)
		scenario := filepath.Dir(expectedDir)
		var stepDir string
		if filepath.Base(expectedDir) == "expected" {
			steps, _ := filepath.Glob(filepath.Join(scenario, "steps", "*"))
			sort.Strings(steps)
			stepDir = steps[len(steps)-1]
		} else {
			scenario = filepath.Dir(scenario)
			stepDir = filepath.Join(scenario, "steps", filepath.Base(expectedDir))
		}
		name := strings.TrimPrefix(planFile, scenariosDir+"/")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(planFile)
			if err != nil {
				t.Fatal(err)
			}
			var plan struct {
				Configuration any `json:"configuration"`
			}
			if err := json.Unmarshal(raw, &plan); err != nil {
				t.Fatal(err)
			}
			cfg, diags := Load(os.DirFS(stepDir), ".")
			if diags.HasErrors() {
				t.Fatalf("load %s: %s", stepDir, diags.Error())
			}
			b, err := MarshalConfigurationJSON(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(plan.Configuration, got); diff != "" {
				t.Errorf("configuration (-opentofu +ours):\n%s", diff)
			}
		})
	}
}

func TestConfigurationJSONProviderInheritance(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
module "m" {
  source    = "./m"
  providers = { aws = aws.west }
}
module "n" {
  source = "./n"
}`,
		"m/main.tf": `resource "aws_instance" "a" {
  ami = "x"
  ebs {
    size = 1
  }
}`,
		"n/main.tf": `resource "random_id" "r" {}`,
	})
	b, err := MarshalConfigurationJSONWith(cfg, JSONOptions{
		SchemaVersion: func(_ addrs.Provider, _ addrs.ResourceMode, typ string) uint64 {
			if typ == "aws_instance" {
				return 1
			}
			return 0
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "provider_config": {
    "aws.west": {"name": "aws", "full_name": "registry.opentofu.org/hashicorp/aws", "alias": "west",
                 "expressions": {"region": {"constant_value": "us-west-2"}}},
    "module.n:random": {"name": "random", "full_name": "registry.opentofu.org/hashicorp/random", "module_address": "module.n"}
  },
  "root_module": {
    "module_calls": {
      "m": {"source": "./m", "module": {"resources": [{
        "address": "aws_instance.a", "mode": "managed", "type": "aws_instance", "name": "a",
        "provider_config_key": "aws.west",
        "expressions": {"ami": {"constant_value": "x"}, "ebs": [{"size": {"constant_value": 1}}]},
        "schema_version": 1}]}},
      "n": {"source": "./n", "module": {"resources": [{
        "address": "random_id.r", "mode": "managed", "type": "random_id", "name": "r",
        "provider_config_key": "module.n:random", "schema_version": 0}]}}
    }
  }
}`
	var wantV, gotV any
	if err := json.Unmarshal([]byte(want), &wantV); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &gotV); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantV, gotV); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
