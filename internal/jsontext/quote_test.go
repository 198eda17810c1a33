package jsontext

import (
	"encoding/json"
	"testing"
)

// checkQuote compares AppendQuote with encoding/json on one string.
func checkQuote(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendQuote([]byte("x"), s); string(got) != "x"+string(want) {
		t.Fatalf("AppendQuote(%q) = %s, encoding/json writes %s", s, got[1:], want)
	}
	if got := AppendQuote(nil, []byte(s)); string(got) != string(want) {
		t.Fatalf("AppendQuote([]byte(%q)) = %s, encoding/json writes %s", s, got, want)
	}
}

func TestAppendQuoteMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `q"b\s`, "<a href=\"x\">&amp;</a>", "\b\f\n\r\t\x00\x1f\x7f",
		"caf\u00e9 \u4e2d \U0001F600", "\u2028 and \u2029", "bad \xff\xfe utf8", "\xe2\x80",
	} {
		t.Run(s, func(t *testing.T) { checkQuote(t, s) })
	}
}

func TestAppendQuoteArrayMatchesEncodingJSON(t *testing.T) {
	for _, ss := range [][]string{{}, {"a"}, {"a", "<b>", "", "\u2028"}} {
		want, err := json.Marshal(ss)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendQuoteArray([]byte("x"), ss); string(got) != "x"+string(want) {
			t.Errorf("AppendQuoteArray(%q) = %s, encoding/json writes %s", ss, got[1:], want)
		}
	}
}

func FuzzAppendQuote(f *testing.F) {
	for _, s := range []string{"a", "<&>", "\u2028", "\xff", "\x00\"\\"} {
		f.Add(s)
	}
	f.Fuzz(checkQuote)
}
