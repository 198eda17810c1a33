package statefile

import (
	"bytes"
	"unicode/utf8"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// This file holds the byte scanner behind the fast reader (fastread.go)
// and the writer's attribute check. It validates JSON at least as strictly
// as encoding/json and reports only "no": every caller that gets a
// negative index falls back to encoding/json, which either accepts the
// input after all or says precisely what is wrong with it.

// maxScanDepth bounds nesting so the recursive scanner's stack stays
// small; deeper documents (encoding/json allows 10000 levels) take the
// slow path.
const maxScanDepth = 512

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

// scanner walks one document. sawSpace records whether any whitespace
// outside strings was skipped since it was last cleared, which tells
// whether a value is already compact.
type scanner struct {
	b        []byte
	sawSpace bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// space skips whitespace from i.
func (s *scanner) space(i int) int {
	b := s.b
	if i >= len(b) || b[i] > ' ' {
		return i
	}
	start := i
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i > start {
		s.sawSpace = true
	}
	return i
}

// str scans the string starting at b[i] == '"'. It returns the index after
// the closing quote and whether the content can be used verbatim: no
// escapes and valid UTF-8, so decoding it would give the same bytes.
func (s *scanner) str(i int) (end int, plain bool) {
	b := s.b
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
				plain = utf8.Valid(b[i+1 : j])
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

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number scans a JSON number starting at b[i].
// A number with a huge exponent is declined, so that the reference
// reader reports it (see maxExponent).
func (s *scanner) number(i int) int {
	end := jsontext.NumberEnd(s.b, i)
	if end > 0 && hugeExponent(s.b[i:end]) {
		return -1
	}
	return end
}

// openArray starts reading an array (or null) at b[i]. When done, the
// caller returns next: past a null or an empty array, or -1 for anything
// else that is not an array; otherwise next is the first element.
func (s *scanner) openArray(i int) (next int, done bool) {
	b := s.b
	if s.isNull(i) {
		return i + 4, true
	}
	if i >= len(b) || b[i] != '[' {
		return -1, true
	}
	i = s.space(i + 1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	return i, false
}

// literal scans true, false or null at b[i].
func (s *scanner) literal(i int, word string) int {
	if len(s.b)-i < len(word) || string(s.b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

func (s *scanner) isNull(i int) bool {
	return len(s.b)-i >= 4 && string(s.b[i:i+4]) == "null"
}

// value scans any JSON value starting at b[i] (no leading whitespace).
func (s *scanner) value(i, depth int) int {
	b := s.b
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; c {
	case '"':
		end, _ := s.str(i)
		return end
	case '{':
		if depth >= maxScanDepth {
			return -1
		}
		i = s.space(i + 1)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return -1
			}
			if i, _ = s.str(i); i < 0 {
				return -1
			}
			i = s.space(i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = s.value(s.space(i+1), depth+1); i < 0 {
				return -1
			}
			i = s.space(i)
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case ',':
				i = s.space(i + 1)
			case '}':
				return i + 1
			default:
				return -1
			}
		}
	case '[':
		if depth >= maxScanDepth {
			return -1
		}
		i = s.space(i + 1)
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		for {
			if i = s.value(i, depth+1); i < 0 {
				return -1
			}
			i = s.space(i)
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case ',':
				i = s.space(i + 1)
			case ']':
				return i + 1
			default:
				return -1
			}
		}
	case 't':
		return s.literal(i, "true")
	case 'f':
		return s.literal(i, "false")
	case 'n':
		return s.literal(i, "null")
	default:
		if c == '-' || isDigit(c) {
			return s.number(i)
		}
		return -1
	}
}

// skipBalanced returns the index after the object or array that starts at
// b[i], matching brackets and skipping strings without validating
// anything else: it only finds where an element ends so elements can be
// decoded in parallel, and the decoder then validates each one.
func skipBalanced(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			j := i + 1
			for {
				k := bytes.IndexByte(b[j:], '"')
				if k < 0 {
					return -1
				}
				j += k
				// A quote is escaped when an odd number of backslashes
				// precede it.
				n := 0
				for b[j-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			i = j + 1
		case '{', '[':
			depth++
			if depth > maxScanDepth {
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

// compactValid reports whether raw is exactly one valid JSON value with no
// whitespace outside strings, so json.Compact would return it unchanged.
func compactValid(raw []byte) bool {
	s := scanner{b: raw}
	return len(raw) > 0 && s.value(0, 0) == len(raw) && !s.sawSpace
}
