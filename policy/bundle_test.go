package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBundlePath(t *testing.T) {
	tests := []struct {
		name   string
		want   string
		wantOK bool
	}{
		{"data.json", "data.json", true},
		{"/data.json", "data.json", true},
		{"./a/b.rego", "a/b.rego", true},
		{"a//b/./c.rego", "a/b/c.rego", true},
		{"../x.rego", "", false},
		{"a/../../x.rego", "", false},
		// Inside the root after cleaning, but a ".." may still name
		// another entry than the one people read: refused too.
		{"a/../x.rego", "", false},
		{`a\..\..\x.rego`, "", false},
		{"..data.json", "..data.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := bundlePath(tt.name)
			if diff := cmp.Diff([]any{tt.want, tt.wantOK}, []any{got, ok}); diff != "" {
				t.Errorf("bundlePath(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
