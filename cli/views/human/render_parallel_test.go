package human

import (
	"bytes"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/cli/views"
)

// TestRenderPlanParallelMatchesSequential renders large plans on one and
// on several goroutines and wants the same bytes.
func TestRenderPlanParallelMatchesSequential(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		opts RenderOptions
	}{
		{"mixed", plantest.MixedPlan(1200), RenderOptions{}},
		{"mixed color", plantest.MixedPlan(700), RenderOptions{Color: true}},
		{"mixed refresh-only", plantest.MixedPlan(900), RenderOptions{Mode: views.ModeRefreshOnly}},
		{"mixed destroy", plantest.MixedPlan(500), RenderOptions{Mode: views.ModeDestroy, Width: 60}},
		{"flat creates", plantest.FlatCreatePlan(3000), RenderOptions{}},
		{"nested split markers", plantest.NestedMarkerPlan(1500), RenderOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seq bytes.Buffer
			if err := renderPlan(&seq, tt.src, builtinSchemas, tt.opts, 1); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(seq.String(), " to add, ") {
				t.Fatalf("no plan summary in:\n%.2000s", seq.String())
			}
			for _, workers := range []int{2, 3, 8} {
				var par bytes.Buffer
				if err := renderPlan(&par, tt.src, builtinSchemas, tt.opts, workers); err != nil {
					t.Fatal(err)
				}
				if par.String() != seq.String() {
					t.Fatalf("workers=%d: output differs (-sequential +parallel):\n%s", workers, cmp.Diff(seq.String(), par.String()))
				}
			}
		})
	}
}
