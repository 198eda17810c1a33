package config

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// BenchmarkLoad10k loads a root module of 10,000 chained resources and
// collects each body's references, the work the engine does per plan.
func BenchmarkLoad10k(b *testing.B) {
	var src strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, max(i-1, 0))
	}
	fsys := fstest.MapFS{"main.tf": {Data: []byte(src.String())}}
	b.ResetTimer()
	for b.Loop() {
		cfg, diags := Load(fsys, ".")
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		for _, r := range cfg.Root.ManagedResources {
			if _, d := ReferencesInBody(r.Config); d.HasErrors() {
				b.Fatal(d)
			}
		}
	}
}
