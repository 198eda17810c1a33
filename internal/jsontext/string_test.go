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
	checkStringValue(t, src, string(got), n, ok)
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

// checkStringValue checks that Scanner.StringValue, over bytes and over a
// string, gives what AppendString gives where Scanner.String accepts.
func checkStringValue(t *testing.T, src []byte, want string, n int, ok bool) {
	t.Helper()
	sb := Scanner[[]byte]{Src: src}
	ss := Scanner[string]{Src: string(src)}
	if end, _ := sb.String(0); end < 0 {
		return
	}
	gb, eb, _ := sb.StringValue(0, nil)
	gs, es, _ := ss.StringValue(0, []byte("reused")[:0])
	if !ok || gb != want || gs != want || eb != n || es != n {
		t.Fatalf("%q: StringValue = %q, %d (bytes), %q, %d (string); AppendString = %q, %d, %v", src, gb, eb, gs, es, want, n, ok)
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

// TestStringValueSlicesStrings pins what the plan reader relies on: plain
// content read from a string is a slice of it, not a copy.
func TestStringValueSlicesStrings(t *testing.T) {
	s := Scanner[string]{Src: `"plain content"`}
	if n := testing.AllocsPerRun(10, func() { s.StringValue(0, nil) }); n != 0 {
		t.Errorf("StringValue over a string allocates %v times for plain content", n)
	}
}
