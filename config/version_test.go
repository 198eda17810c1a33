package config

import "testing"

func TestVersionSatisfies(t *testing.T) {
	tests := []struct {
		constraint string
		want       bool
	}{
		{">= 1.0", true},
		{">= 1.11", false},
		{"1.10.6", true},
		{"= 1.10.5", false},
		{"!= 1.10.6", false},
		{"> 1.10.5, < 2.0.0", true},
		{"~> 1.10", true},
		{"~> 1.10.0", true},
		{"~> 1.9.0", false},
		{"~> 1.11", false},
		{"~> 0.15", false},
		{"<= 1.10.6", true},
		{"< 1.10.6", false},
	}
	for _, tt := range tests {
		t.Run(tt.constraint, func(t *testing.T) {
			got, err := versionSatisfies("1.10.6", tt.constraint)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("1.10.6 against %q: got %v, want %v", tt.constraint, got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", ">= x", "1.2.3.4", ">=", "1,,2"} {
		if _, err := versionSatisfies("1.10.6", bad); err == nil {
			t.Errorf("constraint %q: expected an error", bad)
		}
	}
}
