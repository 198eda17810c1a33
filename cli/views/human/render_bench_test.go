package human

import (
	"bytes"
	"fmt"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"io"
	"testing"
)

func BenchmarkRenderPlan(b *testing.B) {
	for _, n := range []int{1000, 5000, 100000} {
		doc := plantest.FlatCreatePlan(n)
		b.Run(fmt.Sprintf("creates-%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if err := RenderPlan(io.Discard, doc, builtinSchemas, RenderOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestFlatCreatePlanRenders(t *testing.T) {
	var buf bytes.Buffer
	if err := RenderPlan(&buf, plantest.FlatCreatePlan(2), builtinSchemas, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `
tenet used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create

tenet will perform the following actions:

  # terraform_data.r[0] will be created
  + resource "terraform_data" "r" {
      + id     = (known after apply)
      + input  = "x-0"
      + output = (known after apply)
    }

  # terraform_data.r[1] will be created
  + resource "terraform_data" "r" {
      + id     = (known after apply)
      + input  = "x-1"
      + output = (known after apply)
    }

Plan: 2 to add, 0 to change, 0 to destroy.
`
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
