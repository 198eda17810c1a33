package cli

import (
	"context"
	"testing"

	"github.com/tenetplan/tenet/providers/builtin"
)

// Every built-in provider's schema survives the cache file unchanged.
func TestSchemaCacheRoundTrip(t *testing.T) {
	for p, f := range builtin.Registry() {
		inst, err := f()
		if err != nil {
			t.Fatal(err)
		}
		want := inst.GetProviderSchema(context.Background())
		b, err := encodeSchemaCache(want)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := decodeSchemaCache(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !got.Provider.Block.ImpliedType().Equals(want.Provider.Block.ImpliedType()) {
			t.Errorf("%s: provider block differs", p)
		}
		for n, s := range want.ResourceTypes {
			g := got.ResourceTypes[n]
			if g.Version != s.Version || g.Block == nil || !g.Block.ImpliedType().Equals(s.Block.ImpliedType()) {
				t.Errorf("%s %s: differs after the cache", p, n)
			}
		}
		if len(got.DataSources) != len(want.DataSources) || len(got.Functions) != len(want.Functions) {
			t.Errorf("%s: %d/%d data sources, %d/%d functions", p, len(got.DataSources), len(want.DataSources), len(got.Functions), len(want.Functions))
		}
		if got.GetProviderSchemaOptional != want.GetProviderSchemaOptional || got.PlanDestroy != want.PlanDestroy {
			t.Errorf("%s: capabilities differ", p)
		}
	}
	if _, err := decodeSchemaCache([]byte(`{"Format":99}`)); err == nil {
		t.Error("a cache of another format was accepted")
	}
}
