package config

import "testing"

// deprecated needs a message; OpenTofu 1.10 refuses an empty (or blank)
// one on variables (pointing at the label) and outputs (at the value).
func TestDeprecatedMessage(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
variable "v" {
  deprecated = "use w"
}
output "o" {
  value      = 1
  deprecated = "gone"
}`})
	if got := cfg.Root.Variables["v"].Deprecated; got != "use w" {
		t.Errorf("variable deprecated = %q", got)
	}
	if got := cfg.Root.Outputs["o"].Deprecated; got != "gone" {
		t.Errorf("output deprecated = %q", got)
	}

	_, diags := loadInline(t, map[string]string{"main.tf": `
variable "v" {
  deprecated = " "
}
output "o" {
  value      = 1
  deprecated = ""
}`})
	if len(diags) != 2 {
		t.Fatalf("want 2 diagnostics, got %d: %s", len(diags), diags.Error())
	}
	if d := diags[0]; d.Summary != "Invalid `deprecated` value" || d.Subject.Start.Line != 2 {
		t.Errorf("variable: %s at line %d", d.Summary, d.Subject.Start.Line)
	}
	if d := diags[1]; d.Summary != "Invalid `deprecated` attribute" || d.Subject.Start.Line != 7 {
		t.Errorf("output: %s at line %d", d.Summary, d.Subject.Start.Line)
	}
}
