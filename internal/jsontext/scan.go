package jsontext

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds the nesting Scanner.Value and BalancedEnd follow, so
// the recursive scanner's stack stays small; deeper documents
// (encoding/json allows 10000 levels) are the caller's fallback's to read.
const MaxDepth = 512

// stringStop marks the bytes that end a run of plain string content: the
// closing quote, an escape, a control character (invalid in JSON) and
// non-ASCII (which needs a UTF-8 check before it can be taken verbatim).
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// Scanner is the lexer the hand-written readers share. It steps over
// JSON in Src by index: each method takes the index where a token starts
// and returns the index after it, or -1 where Src is not JSON. It
// validates at least as strictly as encoding/json and only ever says
// "no", so a reader that gets -1 falls back to encoding/json, which
// accepts the input after all or says precisely what is wrong with it.
type Scanner[S ~string | ~[]byte] struct {
	Src S
	// SawSpace records whether any whitespace outside strings was skipped
	// since it was last cleared, which tells whether a value is compact.
	SawSpace bool
	// DeclineNumber, when set, makes Number (and so Value) refuse a
	// number it returns true for, to send that input down the reader's
	// fallback.
	DeclineNumber func(num S) bool
}

// IsSpace reports whether c is JSON whitespace.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Space skips whitespace from i.
func (s *Scanner[S]) Space(i int) int {
	b := s.Src
	if i >= len(b) || b[i] > ' ' {
		return i
	}
	start := i
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	if i > start {
		s.SawSpace = true
	}
	return i
}

// String scans the string starting at Src[i] == '"'. It returns the index
// after the closing quote and whether the content can be used verbatim:
// no escapes and valid UTF-8, so decoding it would give the same bytes
// (AppendString decodes the others).
func (s *Scanner[S]) String(i int) (end int, plain bool) {
	b := s.Src
	plain = true
	nonASCII := false
	j := i + 1
	for {
		for j < len(b) && !stringStop[b[j]] {
			j++
		}
		if j >= len(b) {
			return -1, false
		}
		switch c := b[j]; {
		case c == '"':
			if nonASCII && plain {
				plain = validUTF8(b[i+1 : j])
			}
			return j + 1, plain
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return -1, false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return -1, false
				}
				j += 6
			default:
				return -1, false
			}
		case c < 0x20:
			return -1, false
		default: // non-ASCII
			nonASCII = true
			j++
		}
	}
}

// StringValue reads the string at Src[i] and returns its value and the
// index after it, or -1 where no well-formed string starts there. Plain
// content is Src's own (not copied when Src is a string); other content
// is decoded into buf, which is returned for reuse.
func (s *Scanner[S]) StringValue(i int, buf []byte) (value string, end int, bufOut []byte) {
	end, plain := s.String(i)
	switch {
	case end < 0:
		return "", -1, buf
	case plain:
		return string(s.Src[i+1 : end-1]), end, buf
	}
	buf, _, ok := AppendString(buf, s.Src[i:end])
	if !ok {
		return "", -1, buf
	}
	return string(buf), end, buf
}

func validUTF8[S ~string | ~[]byte](s S) bool {
	switch v := any(s).(type) {
	case []byte:
		return utf8.Valid(v)
	case string:
		return utf8.ValidString(v)
	}
	return utf8.ValidString(string(s))
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Number scans a JSON number starting at Src[i].
func (s *Scanner[S]) Number(i int) int {
	end := NumberEnd(s.Src, i)
	if end > 0 && s.DeclineNumber != nil && s.DeclineNumber(s.Src[i:end]) {
		return -1
	}
	return end
}

// OpenArray starts reading an array (or null) at Src[i]. When done, the
// caller returns next: past a null or an empty array, or -1 for anything
// else that is not an array; otherwise next is the first element.
func (s *Scanner[S]) OpenArray(i int) (next int, done bool) {
	b := s.Src
	if s.IsNull(i) {
		return i + 4, true
	}
	if i >= len(b) || b[i] != '[' {
		return -1, true
	}
	i = s.Space(i + 1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	return i, false
}

// Next skips whitespace and the comma or closing bracket after a member
// or element, returning the index after it (and after the whitespace
// following a comma); more says it was a comma.
func (s *Scanner[S]) Next(i int, closing byte) (next int, more bool) {
	if i < 0 {
		return -1, false
	}
	i = s.Space(i)
	if i >= len(s.Src) {
		return -1, false
	}
	switch s.Src[i] {
	case ',':
		return s.Space(i + 1), true
	case closing:
		return i + 1, false
	}
	return -1, false
}

// Literal scans word (true, false, null or any fixed token) at Src[i].
func (s *Scanner[S]) Literal(i int, word string) int {
	if len(s.Src)-i < len(word) || string(s.Src[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// IsNull reports whether null starts at Src[i].
func (s *Scanner[S]) IsNull(i int) bool {
	return len(s.Src)-i >= 4 && string(s.Src[i:i+4]) == "null"
}

// Value scans any JSON value starting at Src[i] (no leading whitespace),
// nested depth levels deep already.
func (s *Scanner[S]) Value(i, depth int) int {
	b := s.Src
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; c {
	case '"':
		end, _ := s.String(i)
		return end
	case '{':
		if depth >= MaxDepth {
			return -1
		}
		i = s.Space(i + 1)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return -1
			}
			if i, _ = s.String(i); i < 0 {
				return -1
			}
			i = s.Space(i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = s.Value(s.Space(i+1), depth+1); i < 0 {
				return -1
			}
			i, _ = s.Next(i, '}')
			if i < 0 || b[i-1] == '}' {
				return i
			}
		}
	case '[':
		if depth >= MaxDepth {
			return -1
		}
		i = s.Space(i + 1)
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		for {
			if i = s.Value(i, depth+1); i < 0 {
				return -1
			}
			i, _ = s.Next(i, ']')
			if i < 0 || b[i-1] == ']' {
				return i
			}
		}
	case 't':
		return s.Literal(i, "true")
	case 'f':
		return s.Literal(i, "false")
	case 'n':
		return s.Literal(i, "null")
	default:
		if c == '-' || isDigit(c) {
			return s.Number(i)
		}
		return -1
	}
}

// BalancedEnd returns the index after the object or array that starts at
// src[i], matching brackets and skipping strings without validating
// anything else: it only finds where an element ends so elements can be
// decoded in parallel, and the decoder then validates each one.
func BalancedEnd[S ~string | ~[]byte](src S, i int) int {
	depth := 0
	for i < len(src) {
		switch src[i] {
		case '"':
			if i = stringEnd(src, i); i < 0 {
				return -1
			}
		case '{', '[':
			depth++
			if depth > MaxDepth {
				return -1
			}
			i++
		case '}', ']':
			depth--
			i++
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return -1
}

// ValueEnd returns the index after the value that starts at src[i] as
// BalancedEnd finds it: a string ends at its closing quote, an object or
// array at its closing bracket, anything else before the next whitespace,
// comma or closing bracket (or at the end of src). It validates nothing,
// so readers use it only to find boundaries, and read what it bounds with
// a Scanner; -1 where no value starts or it does not end.
func ValueEnd[S ~string | ~[]byte](src S, i int) int {
	if i >= len(src) {
		return -1
	}
	switch src[i] {
	case '"':
		return stringEnd(src, i)
	case '{', '[':
		return BalancedEnd(src, i)
	}
	j := i
	for j < len(src) && !IsSpace(src[j]) && src[j] != ',' && src[j] != '}' && src[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// stringEnd returns the index after the closing quote of the string that
// opens at src[i], or -1; it skips escaped quotes and checks nothing else.
func stringEnd[S ~string | ~[]byte](src S, i int) int {
	j := i + 1
	for {
		k := indexByte(src[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		// A quote is escaped when an odd number of backslashes precede it.
		n := 0
		for src[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

func indexByte[S ~string | ~[]byte](s S, c byte) int {
	switch v := any(s).(type) {
	case []byte:
		return bytes.IndexByte(v, c)
	case string:
		return strings.IndexByte(v, c)
	}
	return strings.IndexByte(string(s), c)
}

// IsCompact reports whether raw is exactly one valid JSON value with no
// whitespace outside strings, so json.Compact would return it unchanged.
func IsCompact(raw []byte) bool {
	s := Scanner[[]byte]{Src: raw}
	return len(raw) > 0 && s.Value(0, 0) == len(raw) && !s.SawSpace
}
