package plugin_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
)

// TestRealTimeProvider builds hashicorp/time 0.14.2 (a protocol 5
// provider on terraform-plugin-framework) from the module proxy and
// plans, applies, reads and destroys a time_static. The build is large,
// so the test runs only with TENET_REAL_PROVIDERS=1.
func TestRealTimeProvider(t *testing.T) {
	if os.Getenv("TENET_REAL_PROVIDERS") != "1" || testing.Short() {
		t.Skip("set TENET_REAL_PROVIDERS=1 to build and run the real hashicorp/time provider")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "install", "github.com/hashicorp/terraform-provider-time@v0.14.2")
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building hashicorp/time: %v\n%s", err, out)
	}
	c, err := plugin.New(plugin.Config{
		Name: "registry.opentofu.org/hashicorp/time", Path: filepath.Join(dir, "terraform-provider-time"),
		TerraformVersion: "1.10.0", StartTimeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	ctx := context.Background()
	if got := c.ProtocolVersion(); got != 5 {
		t.Errorf("protocol %d, want 5", got)
	}
	s := c.GetProviderSchema(ctx)
	noErrors(t, "schema", s.Diagnostics)
	if !s.PlanDestroy {
		t.Errorf("time does not ask to plan destroys")
	}
	noErrors(t, "validate provider", c.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: s.Provider.Block.EmptyValue()}).Diagnostics)
	noErrors(t, "configure", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: s.Provider.Block.EmptyValue()}).Diagnostics)

	b := s.ResourceTypes["time_static"].Block
	ty := b.ImpliedType()
	cfg := with(b.EmptyValue(), map[string]cty.Value{"triggers": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})})
	noErrors(t, "validate", c.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "time_static", Config: cfg}).Diagnostics)
	plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "time_static", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg})
	noErrors(t, "plan", plan.Diagnostics)
	if plan.PlannedState.GetAttr("rfc3339").IsKnown() {
		t.Errorf("rfc3339 planned known: %#v", plan.PlannedState)
	}
	applied := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "time_static", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate})
	noErrors(t, "apply", applied.Diagnostics)
	if !applied.NewState.IsWhollyKnown() {
		t.Errorf("applied state has unknowns: %#v", applied.NewState)
	}
	read := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "time_static", PriorState: applied.NewState, Private: applied.Private})
	noErrors(t, "read", read.Diagnostics)
	if !read.NewState.GetAttr("rfc3339").RawEquals(applied.NewState.GetAttr("rfc3339")) {
		t.Errorf("read changed rfc3339: %#v", read.NewState)
	}
	destroy := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "time_static", PriorState: read.NewState, ProposedNewState: cty.NullVal(ty), Config: cty.NullVal(ty)})
	noErrors(t, "plan destroy", destroy.Diagnostics)
	gone := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "time_static", PriorState: read.NewState, PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty)})
	noErrors(t, "apply destroy", gone.Diagnostics)
	if !gone.NewState.IsNull() {
		t.Errorf("destroyed state = %#v", gone.NewState)
	}
}
