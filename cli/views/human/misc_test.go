package human

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

func TestHumanHooks(t *testing.T) {
	var buf bytes.Buffer
	h := NewHumanHooks(&buf, false)
	h.ApplyStart("terraform_data.a", action.Create, "", "")
	h.ApplyProgress("terraform_data.a", action.Create, "", "", 10*time.Second)
	h.ApplyComplete("terraform_data.a", action.Create, "id", "x1", time.Second)
	h.ApplyStart("terraform_data.b", action.Delete, "id", "x2")
	h.ApplyProgress("terraform_data.b", action.Delete, "id", "x2", 20*time.Second)
	h.ApplyComplete("terraform_data.b", action.Delete, "id", "x2", 0)
	h.ApplyStart("terraform_data.c", action.Update, "id", "x3")
	h.ApplyComplete("terraform_data.c", action.Update, "id", "x3", 65*time.Second)
	h.ApplyStart("terraform_data.d", action.Create, "", "")
	// No line for a failure: OpenTofu's human view leaves it to the
	// diagnostics.
	h.ApplyErrored("terraform_data.d", action.Create, 2*time.Second)
	if err := WriteApplySummary(&buf, h.Summary(views.OperationApply), false); err != nil {
		t.Fatal(err)
	}
	want := `terraform_data.a: Creating...
terraform_data.a: Still creating... [10s elapsed]
terraform_data.a: Creation complete after 1s [id=x1]
terraform_data.b: Destroying... [id=x2]
terraform_data.b: Still destroying... [id=x2, 20s elapsed]
terraform_data.b: Destruction complete after 0s
terraform_data.c: Modifying... [id=x3]
terraform_data.c: Modifications complete after 1m5s [id=x3]
terraform_data.d: Creating...

Apply complete! Resources: 1 added, 1 changed, 1 destroyed.
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteApplyOutputs(t *testing.T) {
	outputs := map[string]views.OutputValue{
		"name":   {Value: cty.StringVal("web")},
		"secret": {Value: cty.StringVal("hunter2"), Sensitive: true},
		"list":   {Value: cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		"obj":    {Value: cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1), "long_key": cty.True})},
		"empty":  {Value: cty.EmptyTupleVal},
		"text":   {Value: cty.StringVal("one\ntwo\n")},
	}
	var buf bytes.Buffer
	if err := WriteApplyOutputs(&buf, outputs, false, false); err != nil {
		t.Fatal(err)
	}
	want := `
Outputs:

empty = []
list = tolist([
  "a",
  "b",
])
name = "web"
obj = {
  "long_key" = true
  "n" = 1
}
secret = <sensitive>
text = <<EOT
one
two

EOT
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

}

func FuzzRenderPlan(f *testing.F) {
	f.Add([]byte(`{"resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["update"],"before":{"x":[1,2,{"y":"a\nb"}]},"after":{"x":[2,{"y":"c"}]},"after_unknown":{"x":[false,{"z":true}]}}}]}`))
	f.Add([]byte(`{"output_changes":{"o":{"actions":["create"],"after":{"a":[null]},"after_unknown":{"a":[true]}}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		var buf bytes.Buffer
		_ = RenderPlan(&buf, src, builtinSchemas, RenderOptions{})
	})
}
