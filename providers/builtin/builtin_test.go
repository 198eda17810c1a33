package builtin

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers"
)

func TestRegistry(t *testing.T) {
	// Every resource and data source type of hashicorp/local v2.5.3,
	// null v3.2.4, random v3.7.2 and time v0.14.2.
	want := map[string][]string{
		"terraform.io/builtin/terraform":        {"data.terraform_remote_state", "terraform_data"},
		"registry.opentofu.org/hashicorp/local": {"data.local_file", "data.local_sensitive_file", "local_file", "local_sensitive_file"},
		"registry.opentofu.org/hashicorp/null":  {"data.null_data_source", "null_resource"},
		"registry.opentofu.org/hashicorp/random": {"random_bytes", "random_id", "random_integer", "random_password", "random_pet",
			"random_shuffle", "random_string", "random_uuid"},
		"registry.opentofu.org/hashicorp/time": {"time_offset", "time_rotating", "time_sleep", "time_static"},
	}
	got := map[string][]string{}
	for addr, factory := range Registry() {
		p, err := factory()
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		schema := p.GetProviderSchema(context.Background())
		var types []string
		for name, s := range schema.ResourceTypes {
			types = append(types, name)
			checkSchema(t, addr, name, s)
		}
		for name, s := range schema.DataSources {
			types = append(types, "data."+name)
			checkSchema(t, addr, "data."+name, s)
		}
		sort.Strings(types)
		got[addr.String()] = types
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resource and data source types by provider (-want +got):\n%s", diff)
	}
}

// checkSchema asserts every schema is described and internally consistent.
func checkSchema(t *testing.T, addr addrs.Provider, name string, s providers.Schema) {
	t.Helper()
	if s.Block == nil || s.Block.Description == "" {
		t.Errorf("%s %s: schema has no description", addr, name)
		return
	}
	for attrName, a := range s.Block.Attributes {
		if a.Description == "" {
			t.Errorf("%s %s.%s: no description", addr, name, attrName)
		}
		if a.Required && (a.Optional || a.Computed) {
			t.Errorf("%s %s.%s: required attributes cannot be optional or computed", addr, name, attrName)
		}
		if !a.Required && !a.Optional && !a.Computed {
			t.Errorf("%s %s.%s: neither required, optional nor computed", addr, name, attrName)
		}
		if a.Type == cty.NilType && a.NestedType == nil {
			t.Errorf("%s %s.%s: no type", addr, name, attrName)
		}
	}
}
