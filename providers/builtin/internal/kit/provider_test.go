package kit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/providers"
)

// TestUnknownTypes pins the errors for a type the provider does not have:
// they name the kind of type and list the ones it offers.
func TestUnknownTypes(t *testing.T) {
	b := &Base{Name: "demo", Resources: map[string]*Resource{"demo_b": {}, "demo_a": {}}}
	r, resourceDiags := b.resource("demo_x")
	d, dataDiags := b.dataSource("demo_x")
	if r != nil || d != nil {
		t.Fatalf("found %v and %v for an unknown type", r, d)
	}
	got := append(resourceDiags, dataDiags...)
	want := providers.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Unsupported resource type", Detail: `The demo provider has no resource type "demo_x". It offers: demo_a, demo_b.`},
		{Severity: hcl.DiagError, Summary: "Unsupported data source", Detail: `The demo provider has no data source "demo_x". It offers: none.`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
