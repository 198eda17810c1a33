package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// hugeNumberStd is findHugeNumber's oracle: every number token as
// encoding/json sees it.
func hugeNumberStd(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return ""
		}
		if n, ok := tok.(json.Number); ok && hugeExponent([]byte(n)) {
			return string(n)
		}
	}
}

func FuzzFindHugeNumber(f *testing.F) {
	for _, s := range []string{
		`{"n":9007199E54740993}`, `[1,"e99999",{"a\"1e99999":2e-30000}]`, `1e20000`, `1e20001`,
		`{"s":"\\","n":1E+000000000000020001}`, `[0.5e-7,-0]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		if got, want := findHugeNumber(raw), hugeNumberStd(raw); got != want {
			t.Fatalf("findHugeNumber(%s) = %q, want %q", raw, got, want)
		}
	})
}

func TestHugeExponent(t *testing.T) {
	for num, want := range map[string]bool{
		"1": false, "1e20000": false, "1e20001": true, "1E-20001": true, "1e+000020000": false,
		"9007199E54740993": true, "0.5": false, "12345678901234567890": false, "1e0000000000000000000001": false,
	} {
		if got := hugeExponent([]byte(num)); got != want {
			t.Errorf("hugeExponent(%s) = %v, want %v", num, got, want)
		}
	}
}
