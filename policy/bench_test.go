package policy

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

var benchSizes = []int{5000, 100000}

// BenchmarkInputValue compares OPA's JSON route with the fast conversion
// of the whole document, of the resource changes alone, and of the
// members of them the example policies read.
func BenchmarkInputValue(b *testing.B) {
	examples, diags := Load(context.Background(), Options{Paths: []string{"../examples/policies"}})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for _, n := range benchSizes {
		src := generatePlan(n, false)
		onlyChanges := &inputShape{members: map[string]*inputShape{"resource_changes": nil}}
		b.Run(fmt.Sprintf("opa/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := ast.ValueFromReader(bytes.NewReader(src)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("fast/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := inputValue(src, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("fast-pruned/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := inputValue(src, onlyChanges); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("fast-elements/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := inputValue(src, examples.input.shape); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheck checks the example policies over a whole generated plan
// document (resource_changes, planned_values, prior_state) of n no-op
// changes, as `tenet policy check` would, and over the resource changes
// alone, as the plan command's gate encodes them.
func BenchmarkCheck(b *testing.B) {
	s, diags := Load(context.Background(), Options{Paths: []string{"../examples/policies"}})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for _, n := range benchSizes {
		full := generatePlan(n, false)
		changes, err := inputValue(full, nil)
		if err != nil {
			b.Fatal(err)
		}
		pruned := []byte(ast.NewObject(ast.Item(ast.InternedTerm("resource_changes"), changes.(ast.Object).Get(ast.InternedTerm("resource_changes")))).String())
		for name, src := range map[string][]byte{"full": full, "changes": pruned} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Check(context.Background(), src); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/change")
			})
		}
	}
}
