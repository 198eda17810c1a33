package terraform

import (
	"os"
	"testing"
)

func FuzzParseStateOutputs(f *testing.F) {
	if src, err := os.ReadFile("testdata/other.tfstate"); err == nil {
		f.Add(src)
	}
	f.Add([]byte(`{"version": 4, "outputs": {"o": {"value": {"k": [1]}, "type": ["object", {"k": ["list", "number"]}]}}}`))
	f.Add([]byte(`{"version": 4, "outputs": {"u": {"value": null}}}`))
	f.Add([]byte(`{"version": 3}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		outputs, err := parseStateOutputs(src)
		if err != nil {
			return
		}
		for name, v := range outputs {
			if !v.IsWhollyKnown() {
				t.Errorf("output %q decoded to an unknown value", name)
			}
		}
	})
}

// FuzzDecodeTFVars: decode_tfvars parses what users pass it; it must
// never panic, and a value it returns is wholly known.
func FuzzDecodeTFVars(f *testing.F) {
	f.Add("a = 1\nb = \"x\"\nc = [1, {d = true}]\n")
	f.Add("h = <<EOT\nhello\nEOT\n")
	f.Add("a = var.x")
	f.Add("blk {\n}\n")
	f.Add("a = {")
	f.Fuzz(func(t *testing.T, content string) {
		v, err := decodeTFVars(content)
		if err != nil {
			return
		}
		if !v.IsWhollyKnown() || !v.Type().IsObjectType() {
			t.Errorf("decoded %q to %#v", content, v)
		}
	})
}
