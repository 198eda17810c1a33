package views

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"testing"
)

// flatCreatePlan builds the view document of n terraform_data creates, the
// shape plan.MarshalViewJSON writes for
// `resource "terraform_data" "r" { count = n  input = "x-${count.index}" }`.
func flatCreatePlan(n int) []byte {
	b := make([]byte, 0, 64+300*n)
	b = append(b, `{"format_version":"1.2","resource_changes":[`...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		idx := strconv.Itoa(i)
		b = append(b, `{"address":"terraform_data.r[`+idx+`]","mode":"managed","type":"terraform_data","name":"r","index":`+idx+
			`,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{"input":"x-`+idx+
			`","triggers_replace":null},"after_unknown":{"id":true,"output":true},"before_sensitive":false,"after_sensitive":{}}}`...)
	}
	b = append(b, `],"errored":false}`...)
	return b
}

func BenchmarkRenderPlan(b *testing.B) {
	for _, n := range []int{1000, 5000, 100000} {
		doc := flatCreatePlan(n)
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
	if err := RenderPlan(&buf, flatCreatePlan(2), builtinSchemas, RenderOptions{}); err != nil {
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
