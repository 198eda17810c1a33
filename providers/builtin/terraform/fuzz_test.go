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
