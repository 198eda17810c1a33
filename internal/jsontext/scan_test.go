package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// checkScan compares Scanner.Value and IsCompact with encoding/json: a
// value Value takes whole must be valid JSON, a valid value that is not
// too deep must be taken whole, and IsCompact must agree with
// json.Compact leaving the input unchanged.
func checkScan(t *testing.T, src []byte) {
	t.Helper()
	s := Scanner[[]byte]{Src: src}
	end := s.Value(0, 0)
	valid := json.Valid(src)
	if end == len(src) && !valid {
		t.Fatalf("%q: Value accepted what encoding/json refuses", src)
	}
	str := Scanner[string]{Src: string(src)}
	if got := str.Value(0, 0); got != end {
		t.Fatalf("%q: Value over a string = %d, over bytes = %d", src, got, end)
	}
	if end == len(src) && (ValueEnd(src, 0) != end || ValueEnd(string(src), 0) != end) {
		t.Fatalf("%q: ValueEnd = %d, Value = %d", src, ValueEnd(src, 0), end)
	}
	if !valid || len(src) == 0 || IsSpace(src[0]) || IsSpace(src[len(src)-1]) {
		return
	}
	if end != len(src) && bytes.Count(src, []byte("[")) < MaxDepth {
		t.Fatalf("%q: Value refused valid JSON (end %d)", src, end)
	}
	var compacted bytes.Buffer
	if err := json.Compact(&compacted, src); err != nil {
		t.Fatal(err)
	}
	if want := bytes.Equal(compacted.Bytes(), src); end == len(src) && IsCompact(src) != want {
		t.Fatalf("%q: IsCompact = %v, json.Compact leaves it unchanged: %v", src, !want, want)
	}
}

func TestScannerMatchesEncodingJSON(t *testing.T) {
	for _, src := range []string{
		`{"a":[1,-2.5e3,true,false,null,"x\n\u00e9"],"b":{}}`, `{"a": 1}`, `[ ]`, `[1,]`, `{"a":1,}`,
		`{"a" 1}`, `"\q"`, "\"\xff\"", `tru`, `01`, `[1 2]`, `{"a":{"b":[{"c":null}]}}`,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		t.Run(src[:min(len(src), 30)], func(t *testing.T) { checkScan(t, []byte(src)) })
	}
}

func TestBalancedEnd(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{`{"a":"}\"]"}, rest`, 12},
		{`[[1],[2]]x`, 9},
		{`{"a":"\\"}`, 10},
		{`{"open":[`, -1},
	} {
		if got := BalancedEnd([]byte(tc.src), 0); got != tc.want {
			t.Errorf("BalancedEnd(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestValueEnd(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{`"a\"b" ,`, 6},
		{`{"a":"}"} x`, 9},
		{`123,4`, 3},
		{`true]`, 4},
		{`null`, 4},
		{`-1e5 `, 4},
		{`,`, -1},
		{``, -1},
		{`"open`, -1},
		{`"a\\"x"`, 5},
	} {
		if got := ValueEnd(tc.src, 0); got != tc.want {
			t.Errorf("ValueEnd(%q) = %d, want %d", tc.src, got, tc.want)
		}
		if got := ValueEnd([]byte(tc.src), 0); got != tc.want {
			t.Errorf("ValueEnd([]byte(%q)) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		src      string
		wantNext int
		wantMore bool
	}{
		{` , "b"`, 3, true},
		{`,x`, 1, true},
		{` ]`, 2, false},
		{`}`, -1, false},
		{`  `, -1, false},
	} {
		s := Scanner[string]{Src: tc.src}
		if next, more := s.Next(0, ']'); next != tc.wantNext || more != tc.wantMore {
			t.Errorf("Next(%q) = %d, %v; want %d, %v", tc.src, next, more, tc.wantNext, tc.wantMore)
		}
	}
}

func TestDeclineNumber(t *testing.T) {
	s := Scanner[[]byte]{Src: []byte(`[1,1e999]`), DeclineNumber: func(n []byte) bool { return bytes.ContainsAny(n, "eE") }}
	if got := s.Value(0, 0); got != -1 {
		t.Errorf("Value with a declined number = %d, want -1", got)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b"]}`, `[ 1 , 2 ]`, `"\u00e9"`, `{"a":}`, `-0.5e+1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkScan)
}
