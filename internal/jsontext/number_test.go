package jsontext

import (
	"encoding/json"
	"testing"
)

// checkNumber compares NumberEnd with encoding/json: the longest prefix
// NumberEnd takes must be a valid JSON number, and a whole input that is
// one must be taken whole.
func checkNumber(t *testing.T, src string) {
	t.Helper()
	end := NumberEnd(src, 0)
	if end >= 0 && !json.Valid([]byte(src[:end])) {
		t.Fatalf("%q: NumberEnd took %q, which is not a JSON number", src, src[:end])
	}
	var n json.Number
	isNumber := json.Valid([]byte(src)) && json.Unmarshal([]byte(src), &n) == nil && string(n) == src
	if isNumber && end != len(src) {
		t.Fatalf("%q is a JSON number, NumberEnd = %d", src, end)
	}
}

func TestNumberEnd(t *testing.T) {
	for _, src := range []string{
		"0", "-0", "12", "-12.5", "1e10", "1E+3", "2.5e-7", "01", "1.", ".5", "-", "1e", "1e+",
		"00", "12x", "", "-a", "123456789012345678901234567890",
	} {
		t.Run(src, func(t *testing.T) { checkNumber(t, src) })
	}
	if got := NumberEnd([]byte("[1.5,2]"), 1); got != 4 {
		t.Errorf("NumberEnd inside an array = %d, want 4", got)
	}
}

func FuzzNumberEnd(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "01", "1e", "12x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkNumber(t, src) })
}
