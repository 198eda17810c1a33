package versionparse

import (
	"strings"
	"testing"
)

func TestTooLargeIsAnError(t *testing.T) {
	tests := []struct {
		name  string
		parse func(string) error
		in    string
		ok    bool
	}{
		{"version", func(s string) error { _, err := Version(s); return err }, "1.2.3", true},
		{"version too large", func(s string) error { _, err := Version(s); return err }, "20000000000000000000.0.0", false},
		{"constraint", func(s string) error { _, err := Constraints(s); return err }, ">= 1.0, < 2.0", true},
		{"constraint too large", func(s string) error { _, err := Constraints(s); return err }, "~> 20000000000000000000", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse(tt.in)
			if tt.ok != (err == nil) {
				t.Fatalf("parse(%q) error = %v, want ok=%v", tt.in, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "too large") {
				t.Errorf("error %q does not say the number is too large", err)
			}
		})
	}
}

func FuzzConstraints(f *testing.F) {
	for _, s := range []string{"~> 1.2", ">= 1.0, < 2.0", "1.0.0-beta1", "= 20000000000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Constraints(s)
		_, _ = Version(s)
	})
}
