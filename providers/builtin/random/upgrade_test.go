package random

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
	"github.com/tenetplan/tenet/providers/objchange"
)

// A random_string object as stored by schema version 1: no "numeric".
const stringV1 = `{"id":"Ab3","result":"Ab3","length":3,"keepers":null,"lower":true,"upper":true,"number":false,"special":false,` +
	`"min_lower":0,"min_upper":0,"min_numeric":0,"min_special":0,"override_special":null}`

func TestUpgradeOldStringState(t *testing.T) {
	p := New()
	ctx := context.Background()
	tests := []struct {
		name, typ   string
		version     int64
		raw         string
		wantNumeric cty.Value
	}{
		{"string v1 takes numeric from number", "random_string", 1, stringV1, cty.False},
		{"string v0 without either flag gets the default", "random_string", 0, `{"id":"x","result":"x","length":1}`, cty.True},
		{"password v2 gains a bcrypt hash", "random_password", 2, stringV1, cty.False},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: tt.typ, Version: tt.version, RawJSON: []byte(tt.raw)})
			if resp.Diagnostics.HasErrors() {
				t.Fatalf("upgrade failed: %v", resp.Diagnostics)
			}
			v := resp.UpgradedState
			if got := v.GetAttr("numeric"); !got.RawEquals(tt.wantNumeric) {
				t.Errorf("numeric = %#v, want %#v", got, tt.wantNumeric)
			}
			if got := v.GetAttr("number"); !got.RawEquals(tt.wantNumeric) {
				t.Errorf("number = %#v, want %#v", got, tt.wantNumeric)
			}
			if tt.typ == "random_password" {
				hash := v.GetAttr("bcrypt_hash")
				if hash.IsNull() || bcrypt.CompareHashAndPassword([]byte(hash.AsString()), []byte(v.GetAttr("result").AsString())) != nil {
					t.Errorf("bcrypt_hash %#v does not match the stored result", hash)
				}
			}
		})
	}
}

// The point of the upgrade: the same configuration plans no change for
// an object stored by the old version.
func TestUpgradedStringPlansNoChange(t *testing.T) {
	p := New()
	ctx := context.Background()
	schema := p.GetProviderSchema(ctx).ResourceTypes["random_string"]
	if schema.Version != stringSchemaVersion {
		t.Fatalf("random_string schema version %d, want %d", schema.Version, stringSchemaVersion)
	}
	prior := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "random_string", Version: 1, RawJSON: []byte(stringV1)}).UpgradedState
	attrs := map[string]cty.Value{}
	for name, a := range schema.Block.Attributes {
		attrs[name] = cty.NullVal(a.Type)
	}
	attrs["length"] = cty.NumberIntVal(3)
	attrs["numeric"] = cty.False
	attrs["number"] = cty.False
	attrs["special"] = cty.False
	config := cty.ObjectVal(attrs)
	resp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: "random_string", PriorState: prior, Config: config, ProposedNewState: objchange.ProposedNew(schema.Block, prior, config),
	})
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("plan failed: %v", resp.Diagnostics)
	}
	if !resp.PlannedState.RawEquals(prior) || len(resp.RequiresReplace) > 0 {
		t.Errorf("upgraded object plans a change:\nprior   %#v\nplanned %#v\nreplace %v", prior, resp.PlannedState, resp.RequiresReplace)
	}
}

func TestNewerStateIsRefused(t *testing.T) {
	resp := New().UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "random_string", Version: 3, RawJSON: []byte(stringV1)})
	if !resp.Diagnostics.HasErrors() {
		t.Fatalf("a version 3 random_string object was accepted")
	}
}

// hashicorp/random fills arguments missing from objects imported by old
// versions and remakes a version 2 bcrypt_hash that does not verify.
func TestUpgradeFillsMissingArguments(t *testing.T) {
	const imported = `{"id":"none","result":"pässword","bcrypt_hash":"$2a$10$notavalidhashnotavalidhashnotavalidhashnotavalidhash12"}`
	resp := New().UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "random_password", Version: 2, RawJSON: []byte(imported)})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	v := resp.UpgradedState
	want := map[string]cty.Value{
		"length": cty.NumberIntVal(9), "special": cty.True, "upper": cty.True, "lower": cty.True, "numeric": cty.True, "number": cty.True,
		"min_lower": cty.Zero, "min_upper": cty.Zero, "min_numeric": cty.Zero, "min_special": cty.Zero,
	}
	got := map[string]cty.Value{}
	for name := range want {
		got[name] = v.GetAttr(name)
	}
	if diff := cmp.Diff(want, got, ctyCmp); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(v.GetAttr("bcrypt_hash").AsString()), []byte("pässword")); err != nil {
		t.Errorf("bcrypt_hash was not remade: %v", err)
	}
}

func TestNumberAndNumericStaySynchronised(t *testing.T) {
	tests := []struct {
		config     string
		wantNumber cty.Value
	}{
		{"length = 4", cty.True},
		{"length = 4\nnumber = false", cty.False},
		{"length = 4\nnumeric = false", cty.False},
		{"length = 4\nnumber = true\nnumeric = true", cty.True},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			config := h.Config("random_string", tt.config)
			got := h.Create("random_string", config)
			if diff := cmp.Diff(map[string]cty.Value{"number": tt.wantNumber, "numeric": tt.wantNumber},
				map[string]cty.Value{"number": got.GetAttr("number"), "numeric": got.GetAttr("numeric")}, ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.wantNumber.False() && strings.ContainsAny(got.GetAttr("result").AsString(), "0123456789") {
				t.Errorf("digits in %q", got.GetAttr("result").AsString())
			}
			h.AssertNoOp("random_string", got, config)
		})
	}
	diags := h.Validate("random_string", h.Config("random_string", "length = 4\nnumber = false\nnumeric = true"))
	if len(diags) != 1 || diags[0].Summary != "Conflicting number and numeric" {
		t.Errorf("want a conflict error, got %v", diags)
	}
}

// hashicorp/random draws each min_* from its class even when the class is
// disabled, and an empty override_special means the default set.
func TestStringCharacterClassesMatchHashicorpRandom(t *testing.T) {
	tests := []struct {
		name, config string
		check        func(string) bool
	}{
		{"minimum of a disabled class", "length = 6\nspecial = false\nmin_special = 2\noverride_special = \"_\"", func(s string) bool {
			return strings.Count(s, "_") == 2
		}},
		{"empty override_special", "length = 8\nupper = false\nlower = false\nnumeric = false\noverride_special = \"\"", func(s string) bool {
			return strings.Trim(s, specialChars) == ""
		}},
		{"override_special used", "length = 8\nupper = false\nlower = false\nnumeric = false\noverride_special = \"+\"", func(s string) bool {
			return s == "++++++++"
		}},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.Create("random_string", h.Config("random_string", tt.config)).GetAttr("result").AsString()
			if len(got) != int(mustInt(t, h.Config("random_string", tt.config), "length")) || !tt.check(got) {
				t.Errorf("result %q", got)
			}
		})
	}
}

func mustInt(t *testing.T, v cty.Value, name string) int64 {
	t.Helper()
	n, _ := v.GetAttr(name).AsBigFloat().Int64()
	return n
}
