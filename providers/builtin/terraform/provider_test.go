package terraform

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

var valueComparer = cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func dataObj(id, input, output, triggers cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": triggers})
}

func TestDataResourcePlan(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	unknownID := cty.UnknownVal(cty.String).RefineNotNull()
	prior := dataObj(cty.StringVal("abc"), cty.StringVal("v1"), cty.StringVal("v1"), cty.StringVal("t1"))
	tests := []struct {
		name        string
		prior       cty.Value
		config      string
		want        cty.Value
		wantReplace []string
	}{
		{
			name:   "create: id and output unknown, output typed like input",
			config: `input = "v1"`,
			want:   dataObj(unknownID, cty.StringVal("v1"), cty.UnknownVal(cty.String), nullDyn),
		},
		{
			name:   "create without input: output null at once",
			config: ``,
			want:   dataObj(unknownID, nullDyn, nullDyn, nullDyn),
		},
		{
			name:   "unchanged: no-op",
			prior:  prior,
			config: "input = \"v1\"\ntriggers_replace = \"t1\"",
			want:   prior,
		},
		{
			name:   "input changed: update with output unknown, id kept",
			prior:  prior,
			config: "input = 2\ntriggers_replace = \"t1\"",
			want:   dataObj(cty.StringVal("abc"), cty.NumberIntVal(2), cty.UnknownVal(cty.Number), cty.StringVal("t1")),
		},
		{
			name:        "triggers_replace changed: replace",
			prior:       prior,
			config:      "input = \"v1\"\ntriggers_replace = \"t2\"",
			want:        dataObj(unknownID, cty.StringVal("v1"), cty.UnknownVal(cty.String), cty.StringVal("t2")),
			wantReplace: []string{"triggers_replace"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := h.Plan("terraform_data", orNil(tt.prior), h.Config("terraform_data", tt.config))
			if diff := cmp.Diff(tt.want, resp.PlannedState, valueComparer); diff != "" {
				t.Errorf("planned (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantReplace, kittest.ReplacePaths(resp.RequiresReplace)); diff != "" {
				t.Errorf("requires replace (-want +got):\n%s", diff)
			}
		})
	}
}

func orNil(v cty.Value) cty.Value {
	if v == (cty.Value{}) {
		return cty.NilVal
	}
	return v
}

func TestDataResourceLifecycle(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	config := h.Config("terraform_data", `input = { a = [1, 2] }`)
	created := h.Create("terraform_data", config)
	if id := created.GetAttr("id").AsString(); !uuidPattern.MatchString(id) {
		t.Errorf("id %q is not a UUID", id)
	}
	if !created.GetAttr("output").RawEquals(config.GetAttr("input")) {
		t.Errorf("output %#v, want the input", created.GetAttr("output"))
	}
	h.AssertNoOp("terraform_data", created, config)

	changed := h.Config("terraform_data", `input = "new"`)
	plan := h.Plan("terraform_data", created, changed)
	updated := h.Apply("terraform_data", created, plan.PlannedState, changed)
	if !updated.GetAttr("id").RawEquals(created.GetAttr("id")) {
		t.Errorf("update changed id")
	}
	if !updated.GetAttr("output").RawEquals(cty.StringVal("new")) {
		t.Errorf("output after update %#v", updated.GetAttr("output"))
	}
	h.Destroy("terraform_data", updated)
}

func TestDataResourceImport(t *testing.T) {
	p := New()
	resp := p.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: "terraform_data", ID: "my-id"})
	if resp.Diagnostics.HasErrors() || len(resp.ImportedResources) != 1 {
		t.Fatalf("import: %v", resp.Diagnostics)
	}
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	want := dataObj(cty.StringVal("my-id"), nullDyn, nullDyn, nullDyn)
	if diff := cmp.Diff(want, resp.ImportedResources[0].State, valueComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDataResourceUpgradeFromOpenTofuState(t *testing.T) {
	p := New()
	raw := []byte(`{"id": "aaaaaaaa-0000-0000-0000-000000000002", "input": {"value": "v", "type": "string"},
		"output": {"value": "v", "type": "string"}, "triggers_replace": null, "retired_attribute": 1}`)
	resp := p.UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "terraform_data", RawJSON: raw})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	want := dataObj(cty.StringVal("aaaaaaaa-0000-0000-0000-000000000002"), cty.StringVal("v"), cty.StringVal("v"), cty.NullVal(cty.DynamicPseudoType))
	if diff := cmp.Diff(want, resp.UpgradedState, valueComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRemoteState(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/other.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.tfstate"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	wsDir := filepath.Join(dir, "terraform.tfstate.d", "blue")
	if err := os.MkdirAll(wsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ws := `{"version": 4, "outputs": {"n": {"value": [1, 2], "type": ["list", "number"]}, "o": {"value": {"k": true}, "type": ["object", {"k": "bool"}]}}}`
	if err := os.WriteFile(filepath.Join(wsDir, "terraform.tfstate"), []byte(ws), 0o644); err != nil {
		t.Fatal(err)
	}
	h := kittest.New(t, New(), dir)
	tests := []struct {
		name        string
		config      string
		wantOutputs cty.Value
		wantErr     string
		wantErrPath string
		// readFailed: the read itself failed, so OpenTofu's closing
		// error without source follows.
		readFailed bool
	}{
		{
			name:        "reads outputs of a state written by OpenTofu",
			config:      `backend = "local"` + "\n" + `config = { path = "other.tfstate" }`,
			wantOutputs: cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("from-remote")}),
		},
		{
			name:   "defaults fill missing outputs only",
			config: `backend = "local"` + "\n" + `config = { path = "other.tfstate" }` + "\n" + `defaults = { v = "d", w = "dw" }`,
			wantOutputs: cty.ObjectVal(map[string]cty.Value{
				"v": cty.StringVal("from-remote"), "w": cty.StringVal("dw"),
			}),
		},
		{
			name:   "non-default workspace",
			config: `backend = "local"` + "\n" + `workspace = "blue"`,
			wantOutputs: cty.ObjectVal(map[string]cty.Value{
				"n": cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
				"o": cty.ObjectVal(map[string]cty.Value{"k": cty.True}),
			}),
		},
		{
			name:        "missing file",
			config:      `backend = "local"` + "\n" + `config = { path = "nope.tfstate" }`,
			wantErr:     "Unable to find remote state",
			wantErrPath: "", // at the block, as OpenTofu
			readFailed:  true,
		},
		{
			name:        "unsupported backend",
			config:      `backend = "s3"`,
			wantErr:     "Unsupported backend type",
			wantErrPath: "backend",
		},
		{
			name:        "no such backend type",
			config:      `backend = "nope"`,
			wantErr:     "Invalid backend configuration",
			wantErrPath: "backend",
		},
		{
			name:        "backend type OpenTofu removed",
			config:      `backend = "etcd"`,
			wantErr:     "Invalid backend configuration",
			wantErrPath: "backend",
		},
		{
			name:        "unknown local backend setting",
			config:      `backend = "local"` + "\n" + `config = { bucket = "x" }`,
			wantErr:     "Invalid backend configuration",
			wantErrPath: "config",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := h.ReadData("terraform_remote_state", h.DataConfig("terraform_remote_state", tt.config))
			if tt.wantErr != "" {
				var closing []string
				var own providers.Diagnostics
				for _, d := range diags {
					if d.Sourceless {
						closing = append(closing, d.Summary)
					} else {
						own = append(own, d)
					}
				}
				kittest.WantOne(t, own, tt.wantErr, tt.wantErrPath)
				var want []string
				if tt.readFailed {
					want = []string{"data.terraform_remote_state.test: Unable to read remote state"}
				}
				if diff := cmp.Diff(want, closing); diff != "" {
					t.Errorf("closing diagnostics (-want +got):\n%s", diff)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.wantOutputs, got.GetAttr("outputs"), valueComparer); diff != "" {
				t.Errorf("outputs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRemoteStateValidateToleratesUnknowns(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	config := cty.ObjectVal(map[string]cty.Value{
		"backend":   cty.UnknownVal(cty.String),
		"config":    cty.ObjectVal(map[string]cty.Value{"path": cty.UnknownVal(cty.String)}),
		"defaults":  cty.NullVal(cty.DynamicPseudoType),
		"workspace": cty.NullVal(cty.String),
		"outputs":   cty.NullVal(cty.DynamicPseudoType),
	})
	diags := h.Provider.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: "terraform_remote_state", Config: config}).Diagnostics
	if len(diags) > 0 {
		t.Errorf("unexpected diagnostics %v", diags)
	}
}
