package jsontext

import (
	"encoding/json"
	"testing"
)

// check compares AppendString with encoding/json on one input.
func check(t *testing.T, src []byte) {
	t.Helper()
	if len(src) == 0 || src[0] != '"' {
		if _, _, ok := AppendString(nil, src); ok {
			t.Fatalf("%q: AppendString accepted input that does not start with a quote", src)
		}
		return
	}
	var want string
	wantErr := json.Unmarshal(src, &want) != nil
	got, n, ok := AppendString(nil, src)
	if ok && n != len(src) {
		// Trailing bytes after the string: encoding/json refuses those,
		// AppendString stops at the closing quote. Compare the string alone.
		var alone string
		wantErr = json.Unmarshal(src[:n], &alone) != nil
		want = alone
	}
	switch {
	case wantErr && ok && n == len(src):
		t.Fatalf("%q: AppendString accepted what encoding/json refuses", src)
	case !wantErr && !ok:
		t.Fatalf("%q: AppendString refused what encoding/json decodes to %q", src, want)
	case ok && !wantErr && string(got) != want:
		t.Fatalf("%q: got %q, encoding/json gives %q", src, got, want)
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, src := range []string{
		`""`, `"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u4e2d"`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, "\"\xff\xfe\"",
		"\"caf\xc3\xa9\"", `"\x"`, "\"a\nb\"", `"unterminated`, `"\u12"`, `"\uZZZZ"`,
		`"a" trailing`, `x`, ``, ` "0"`,
	} {
		t.Run(src, func(t *testing.T) { check(t, []byte(src)) })
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\ud83d\ude00"`, "\"\xff\"", `"\u0000"`, `"\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { check(t, src) })
}
