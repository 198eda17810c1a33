package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

func TestSensitiveValues(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want []string
	}{
		{"whole value marked", `{"resource_changes": [{"change": {"after": {"pw": "abc", "n": 7, "ok": true}, "after_sensitive": true}}]}`, []string{"abc", "7"}},
		{"one attribute", `{"resource_changes": [{"change": {"before": {"pw": "old", "name": "x"}, "before_sensitive": {"pw": true}, "after": {"pw": "new", "name": "x"}, "after_sensitive": {"pw": true, "name": false}}}]}`, []string{"new", "old"}},
		{"list elements", `{"resource_drift": [{"change": {"after": {"l": ["a", "bb"]}, "after_sensitive": {"l": [false, true]}}}]}`, []string{"bb"}},
		{"escaped form too", `{"output_changes": {"o": {"after": "a\"b", "after_sensitive": true}}}`, []string{`a\"b`, `a"b`}},
		{"planned values and outputs", `{"planned_values": {"outputs": {"o": {"sensitive": true, "value": "out"}, "p": {"sensitive": false, "value": "public"}},
			"root_module": {"child_modules": [{"resources": [{"values": {"k": "deep"}, "sensitive_values": {"k": true}}]}]}}}`, []string{"deep", "out"}},
		{"prior state", `{"prior_state": {"values": {"root_module": {"resources": [{"values": {"k": "was"}, "sensitive_values": {"k": true}}]}}}}`, []string{"was"}},
		{"variables declared sensitive", `{"variables": {"a": {"value": "s1"}, "b": {"value": "p1"}},
			"configuration": {"root_module": {"variables": {"a": {"sensitive": true}, "b": {}}}}}`, []string{"s1"}},
		{"nothing marked", `{"resource_changes": [{"change": {"after": {"pw": "abc"}, "after_sensitive": {}}}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ast.ValueFromReader(strings.NewReader(tt.plan))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, sensitiveValues(v)); diff != "" {
				t.Errorf("sensitive values (-want +got):\n%s", diff)
			}
		})
	}
}
