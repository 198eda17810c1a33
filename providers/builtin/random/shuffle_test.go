package random

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

// The expected orders were computed with hashicorp/random v3.7.2's
// algorithm (CRC-64/ISO seed into math/rand, then Perm until
// result_count items) in a separate program.
func TestSeededShuffleMatchesHashicorpRandom(t *testing.T) {
	tests := []struct {
		name, config string
		want         []string
	}{
		{"whole", `input = ["a", "b", "c", "d", "e"]` + "\nseed = \"seed\"", []string{"d", "a", "e", "b", "c"}},
		{"repeats", `input = ["a", "b", "c"]` + "\nseed = \"tenet\"\nresult_count = 7", []string{"a", "c", "b", "c", "a", "b", "a"}},
		{"fewer", `input = ["a", "b", "c", "d"]` + "\nseed = \"abc\"\nresult_count = 2", []string{"c", "a"}},
		{"zero count means all", `input = ["a", "b", "c", "d", "e"]` + "\nseed = \"seed\"\nresult_count = 0", []string{"d", "a", "e", "b", "c"}},
		{"empty input", "input = []\nresult_count = 3", nil},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := h.Config("random_shuffle", tt.config)
			got := h.Create("random_shuffle", config)
			var gotStrs []string
			for _, v := range got.GetAttr("result").AsValueSlice() {
				gotStrs = append(gotStrs, v.AsString())
			}
			if diff := cmp.Diff(tt.want, gotStrs); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if id := got.GetAttr("id").AsString(); id != "-" {
				t.Errorf("id %q, want \"-\"", id)
			}
			h.AssertNoOp("random_shuffle", got, config)
		})
	}
}

func TestUUIDAndBytes(t *testing.T) {
	uuidRE := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	tests := []struct {
		typ, config string
		check       func(t *testing.T, v cty.Value)
	}{
		{"random_uuid", "", func(t *testing.T, v cty.Value) {
			if r := v.GetAttr("result").AsString(); !uuidRE.MatchString(r) || v.GetAttr("id").AsString() != r {
				t.Errorf("result %q id %q", r, v.GetAttr("id").AsString())
			}
		}},
		{"random_bytes", "length = 4", func(t *testing.T, v cty.Value) {
			if b, x := v.GetAttr("base64").AsString(), v.GetAttr("hex").AsString(); len(b) != 8 || len(x) != 8 || v.GetAttr("id").AsString() != "none" {
				t.Errorf("base64 %q hex %q id %q", b, x, v.GetAttr("id").AsString())
			}
		}},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			config := h.Config(tt.typ, tt.config)
			v := h.Create(tt.typ, config)
			tt.check(t, v)
			h.AssertNoOp(tt.typ, v, config)
			other := h.Create(tt.typ, config)
			if other.RawEquals(v) {
				t.Errorf("two creates gave the same value")
			}
		})
	}
	schema := h.Schema.ResourceTypes["random_bytes"].Block
	if !schema.Attributes["base64"].Sensitive || !schema.Attributes["hex"].Sensitive {
		t.Errorf("random_bytes base64 and hex must be sensitive")
	}
}

func TestImportUUIDAndBytes(t *testing.T) {
	tests := []struct {
		typ, id, config string
		want            map[string]cty.Value
		wantErr         string
	}{
		{typ: "random_uuid", id: "6D1C4D8E-0A5B-4C3B-9F7E-2B1A0C9D8E7F",
			want: map[string]cty.Value{"result": cty.StringVal("6d1c4d8e-0a5b-4c3b-9f7e-2b1a0c9d8e7f"), "id": cty.StringVal("6d1c4d8e-0a5b-4c3b-9f7e-2b1a0c9d8e7f")}},
		{typ: "random_uuid", id: "not-a-uuid", wantErr: "Invalid random_uuid import ID"},
		{typ: "random_bytes", id: "AAEC/w==", config: "length = 4",
			want: map[string]cty.Value{"length": cty.NumberIntVal(4), "base64": cty.StringVal("AAEC/w=="), "hex": cty.StringVal("000102ff"), "id": cty.StringVal("none")}},
		{typ: "random_bytes", id: "AAEC_w", wantErr: "Invalid random_bytes import ID"},
		{typ: "random_shuffle", id: "-", wantErr: "Resource import not supported"},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.id, func(t *testing.T) {
			got, diags := h.Import(tt.typ, tt.id)
			if tt.wantErr != "" {
				if len(diags) != 1 || diags[0].Summary != tt.wantErr {
					t.Fatalf("want %q, got %v", tt.wantErr, diags)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			gotSome := map[string]cty.Value{}
			for name := range tt.want {
				gotSome[name] = got.GetAttr(name)
			}
			if diff := cmp.Diff(tt.want, gotSome, ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			plan := h.Plan(tt.typ, got, h.Config(tt.typ, tt.config))
			if len(plan.RequiresReplace) > 0 || !strings.EqualFold(plan.PlannedState.GetAttr("id").AsString(), got.GetAttr("id").AsString()) {
				t.Errorf("plan after import replaces: %v", plan.RequiresReplace)
			}
		})
	}
}

// Pet names have hashicorp/random's shape: adverbs, then an adjective,
// then an animal.
func TestPetNameShape(t *testing.T) {
	in := func(list []string, w string) bool {
		for _, x := range list {
			if x == w {
				return true
			}
		}
		return false
	}
	tests := []struct {
		config string
		want   [][]string
	}{
		{"length = 1", [][]string{petAnimals}},
		{"length = 2", [][]string{petAdjectives, petAnimals}},
		{"length = 4\nseparator = \".\"", [][]string{petAdverbs, petAdverbs, petAdjectives, petAnimals}},
		{"prefix = \"p\"", [][]string{{"p"}, petAdjectives, petAnimals}},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			id := h.Create("random_pet", h.Config("random_pet", tt.config)).GetAttr("id").AsString()
			sep := "-"
			if strings.Contains(tt.config, "separator") {
				sep = "."
			}
			words := strings.Split(id, sep)
			if len(words) != len(tt.want) {
				t.Fatalf("%q has %d words, want %d", id, len(words), len(tt.want))
			}
			for i, w := range words {
				if !in(tt.want[i], w) {
					t.Errorf("word %d of %q is not from the expected list", i, id)
				}
			}
		})
	}
}
