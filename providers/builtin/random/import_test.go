package random

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

// The import IDs and imported attributes follow hashicorp/random v3.7.2.
func TestImport(t *testing.T) {
	tests := []struct {
		typ, id, config string
		want            map[string]cty.Value
	}{
		{
			typ: "random_id", id: "p-,AAEC", config: "byte_length = 3\nprefix = \"p-\"",
			want: map[string]cty.Value{
				"id": cty.StringVal("AAEC"), "b64_url": cty.StringVal("p-AAEC"), "b64_std": cty.StringVal("p-AAEC"),
				"hex": cty.StringVal("p-000102"), "dec": cty.StringVal("p-258"), "byte_length": cty.NumberIntVal(3),
				"prefix": cty.StringVal("p-"), "keepers": cty.MapValEmpty(cty.String),
			},
		},
		{
			typ: "random_id", id: "__8", config: "byte_length = 2",
			want: map[string]cty.Value{
				"id": cty.StringVal("__8"), "b64_url": cty.StringVal("__8"), "b64_std": cty.StringVal("//8="),
				"hex": cty.StringVal("ffff"), "dec": cty.StringVal("65535"), "byte_length": cty.NumberIntVal(2),
				"prefix": cty.NullVal(cty.String),
			},
		},
		{
			typ: "random_integer", id: "15,1,20,s", config: "min = 1\nmax = 20\nseed = \"s\"",
			want: map[string]cty.Value{
				"id": cty.StringVal("15"), "result": cty.NumberIntVal(15), "min": cty.NumberIntVal(1),
				"max": cty.NumberIntVal(20), "seed": cty.StringVal("s"), "keepers": cty.MapValEmpty(cty.String),
			},
		},
		{
			typ: "random_integer", id: "-3,-5,5", config: "min = -5\nmax = 5",
			want: map[string]cty.Value{
				"id": cty.StringVal("-3"), "result": cty.NumberIntVal(-3), "min": cty.NumberIntVal(-5),
				"max": cty.NumberIntVal(5), "seed": cty.NullVal(cty.String),
			},
		},
		{
			typ: "random_string", id: "abc!D", config: "length = 5",
			want: map[string]cty.Value{
				"id": cty.StringVal("abc!D"), "result": cty.StringVal("abc!D"), "length": cty.NumberIntVal(5),
				"special": cty.True, "numeric": cty.True, "number": cty.True, "min_upper": cty.Zero,
				"override_special": cty.NullVal(cty.String), "keepers": cty.NullVal(cty.Map(cty.String)),
			},
		},
		{
			typ: "random_password", id: "s3cret", config: "length = 6",
			want: map[string]cty.Value{
				"id": cty.StringVal("none"), "result": cty.StringVal("s3cret"), "length": cty.NumberIntVal(6),
				"lower": cty.True, "min_special": cty.Zero,
			},
		},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.id, func(t *testing.T) {
			got, diags := h.Import(tt.typ, tt.id)
			if diags.HasErrors() {
				t.Fatalf("import: %v", diags)
			}
			gotSome := map[string]cty.Value{}
			for name := range tt.want {
				gotSome[name] = got.GetAttr(name)
			}
			if diff := cmp.Diff(tt.want, gotSome, ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.typ == "random_password" {
				if err := bcrypt.CompareHashAndPassword([]byte(got.GetAttr("bcrypt_hash").AsString()), []byte(tt.id)); err != nil {
					t.Errorf("bcrypt_hash does not match the imported password: %v", err)
				}
			}
			// Planning the matching configuration afterwards must
			// keep the imported value (keepers may be updated in place).
			plan := h.Plan(tt.typ, got, h.Config(tt.typ, tt.config))
			if len(plan.RequiresReplace) > 0 || !plan.PlannedState.GetAttr("id").RawEquals(got.GetAttr("id")) {
				t.Errorf("plan after import replaces: %v %#v", plan.RequiresReplace, plan.PlannedState)
			}
		})
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct{ typ, id, wantSummary string }{
		{"random_id", "p,not base64!", "Invalid random_id import ID"},
		{"random_integer", "1,2", "Invalid random_integer import ID"},
		{"random_integer", "x,1,2", "Invalid random_integer import ID"},
		{"random_pet", "some-pet", "Resource import not supported"},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.id, func(t *testing.T) {
			resp := h.Provider.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: tt.typ, ID: tt.id})
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != tt.wantSummary || len(resp.ImportedResources) != 0 {
				t.Errorf("want one %q error, got %v", tt.wantSummary, resp.Diagnostics)
			}
		})
	}
}
