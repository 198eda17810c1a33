package plugin_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
)

// BenchmarkTimePluginRoundTrip measures one RPC to the real
// hashicorp/time 0.14.2 plugin for a time_static, the floor under
// tenet's per-instance cost (docs/providers.md): the executable is the
// one scripts/build-time-provider.sh prints, named by
// TENET_TIME_PROVIDER. "serial" is one call at a time, "parallel" as
// many as GOMAXPROCS goroutines keep going (the engine's -parallelism).
func BenchmarkTimePluginRoundTrip(b *testing.B) {
	exe := os.Getenv("TENET_TIME_PROVIDER")
	if exe == "" {
		b.Skip("set TENET_TIME_PROVIDER to the executable scripts/build-time-provider.sh builds")
	}
	ctx := context.Background()
	c, err := plugin.New(plugin.Config{Name: "registry.opentofu.org/hashicorp/time", Path: exe, TerraformVersion: "1.10.0", StartTimeout: 30 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	s := c.GetProviderSchema(ctx)
	if s.Diagnostics.HasErrors() {
		b.Fatal(s.Diagnostics)
	}
	if d := c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: s.Provider.Block.EmptyValue()}).Diagnostics; d.HasErrors() {
		b.Fatal(d)
	}
	blk := s.ResourceTypes["time_static"].Block
	ty := blk.ImpliedType()
	cfg := blk.EmptyValue()
	null := cty.NullVal(ty)
	plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "time_static", PriorState: null, ProposedNewState: cfg, Config: cfg})
	applied := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "time_static", PriorState: null, PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate})
	if applied.Diagnostics.HasErrors() {
		b.Fatal(applied.Diagnostics)
	}
	proposedNoChange := applied.NewState
	calls := []struct {
		name string
		call func() providers.Diagnostics
	}{
		{"ValidateResourceConfig", func() providers.Diagnostics {
			return c.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "time_static", Config: cfg}).Diagnostics
		}},
		{"PlanResourceChange/create", func() providers.Diagnostics {
			return c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "time_static", PriorState: null, ProposedNewState: cfg, Config: cfg}).Diagnostics
		}},
		{"PlanResourceChange/nochange", func() providers.Diagnostics {
			return c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "time_static", PriorState: applied.NewState, ProposedNewState: proposedNoChange, Config: cfg, PriorPrivate: applied.Private}).Diagnostics
		}},
		{"ApplyResourceChange/create", func() providers.Diagnostics {
			return c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "time_static", PriorState: null, PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate}).Diagnostics
		}},
		{"ReadResource", func() providers.Diagnostics {
			return c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "time_static", PriorState: applied.NewState, Private: applied.Private}).Diagnostics
		}},
		{"UpgradeResourceState", func() providers.Diagnostics {
			return c.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "time_static", RawJSON: []byte(`{"id":"2024-01-01T00:00:00Z","rfc3339":"2024-01-01T00:00:00Z","day":1,"hour":0,"minute":0,"month":1,"second":0,"unix":1704067200,"year":2024,"triggers":null}`)}).Diagnostics
		}},
	}
	for _, k := range calls {
		if d := k.call(); d.HasErrors() {
			b.Fatalf("%s: %v", k.name, d)
		}
		b.Run(k.name+"/serial", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				k.call()
			}
		})
		b.Run(k.name+"/parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					k.call()
				}
			})
		})
	}
}
