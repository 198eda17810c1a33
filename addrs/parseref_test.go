package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func parseRefStr(t testing.TB, s string) (*Reference, hcl.Diagnostics) {
	t.Helper()
	// As an expression, so that indexes such as [true] are allowed.
	expr, diags := hclsyntax.ParseExpression([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() || len(expr.Variables()) != 1 {
		t.Fatalf("%q is no single traversal: %s", s, diags.Error())
	}
	return ParseRef(expr.Variables()[0])
}

// The errors are OpenTofu 1.10.6's for the same references.
func TestParseRef(t *testing.T) {
	tests := []struct {
		ref         string
		wantSubject string
		wantRest    int
		wantLong    bool
		wantErr     string // summary: detail
	}{
		{ref: "resource.aws_instance.web.id", wantSubject: "aws_instance.web", wantRest: 1, wantLong: true},
		{ref: `resource.aws_instance.web["a"].id`, wantSubject: `aws_instance.web["a"]`, wantRest: 1, wantLong: true},
		{ref: "aws_instance.web[0]", wantSubject: "aws_instance.web[0]"},
		{ref: "data.d.x", wantSubject: "data.d.x"},
		{ref: "tofu.workspace", wantSubject: "tofu.workspace"},
		{ref: "terraform.workspace", wantSubject: "terraform.workspace"},
		{ref: "module.m[0].out", wantSubject: "module.m", wantRest: 2},
		{ref: "resource", wantErr: `Invalid reference: The "resource" object must be followed by two attribute names: the resource type and the resource name.`},
		{ref: "resource.aws_instance", wantErr: `Invalid reference: The "resource" object must be followed by two attribute names: the resource type and the resource name.`},
		{ref: "resource.aws_instance[0]", wantErr: "Invalid reference: A reference to a resource type must be followed by at least one attribute access, specifying the resource name."},
		{ref: `data["x"].y.z`, wantErr: `Invalid reference: The "data" object does not support this operation.`},
		{ref: "data.x", wantErr: `Invalid reference: The "data" object must be followed by two attribute names: the data source type and the resource name.`},
		{ref: "data.x[0]", wantErr: "Invalid reference: A reference to a data source must be followed by at least one attribute access, specifying the resource name."},
		{ref: "aws_instance.web[true]", wantErr: "Invalid index key: Invalid index for resource instance: either a string or an integer is required."},
		{ref: "aws_instance.web[1.5]", wantErr: "Invalid index key: Invalid index for resource instance: value must be a whole number, between -9223372036854775808 and 9223372036854775807."},
		{ref: "module.m[true]", wantErr: "Invalid index key: Invalid index for module instance: either a string or an integer is required."},
		{ref: "module.m[0][1]", wantErr: "Invalid reference: Module instance objects do not support this operation."},
		{ref: "path", wantSubject: "path.", wantErr: `Invalid reference: The "path" object cannot be accessed directly. Instead, access one of its attributes.`},
		{ref: "var[0]", wantSubject: "var.", wantErr: `Invalid reference: The "var" object does not support this operation.`},
		{ref: "lazy.x", wantErr: `Reserved symbol name: The symbol name "lazy" is reserved for use in a future tenet version. If you are using a provider that already uses this as a resource type name, add the prefix "resource." to force interpretation as a resource type name.`},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			ref, diags := parseRefStr(t, tt.ref)
			var gotErr string
			if diags.HasErrors() {
				gotErr = diags[0].Summary + ": " + diags[0].Detail
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			var gotSubject string
			if ref != nil {
				gotSubject = ref.Subject.String()
			}
			if diff := cmp.Diff(tt.wantSubject, gotSubject); diff != "" {
				t.Errorf("subject (-want +got):\n%s", diff)
			}
			if ref != nil && (len(ref.Remaining) != tt.wantRest || ref.LongForm != tt.wantLong) {
				t.Errorf("remaining %d (want %d), long form %t (want %t)", len(ref.Remaining), tt.wantRest, ref.LongForm, tt.wantLong)
			}
		})
	}
}

// resource.TYPE.NAME means TYPE.NAME.
func FuzzParseRefLongForm(f *testing.F) {
	for _, s := range []string{"a.b", `a.b["k"].c`, "a.b[3]", "a", "a[0]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
		if diags.HasErrors() || len(tr) == 0 {
			return
		}
		long, diags := hclsyntax.ParseTraversalAbs([]byte("resource."+s), "", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		short, shortDiags := ParseRef(tr)
		ref, longDiags := ParseRef(long)
		if tr.RootName() == "resource" || shortDiags.HasErrors() || short == nil {
			return
		}
		if _, ok := short.Subject.(Resource); !ok {
			if _, ok := short.Subject.(ResourceInstance); !ok {
				return
			}
		}
		if longDiags.HasErrors() {
			t.Fatalf("%q parses but resource.%s does not: %s", s, s, longDiags.Error())
		}
		if ref.Subject.String() != short.Subject.String() || len(ref.Remaining) != len(short.Remaining) {
			t.Fatalf("resource.%s is %s (+%d), %s is %s (+%d)", s, ref.Subject, len(ref.Remaining), s, short.Subject, len(short.Remaining))
		}
	})
}
