package jsontext

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendString decodes the JSON string that starts at src[0] (its opening
// quote) and appends its value to dst, as encoding/json decodes it into a
// Go string. n is the number of bytes of src the string takes, closing
// quote included; ok is false when src does not start with a well-formed
// JSON string (a bad escape, a control character, no closing quote).
func AppendString[S ~string | ~[]byte](dst []byte, src S) (out []byte, n int, ok bool) {
	if len(src) == 0 || src[0] != '"' {
		return dst, 0, false
	}
	i := 1
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return dst, i + 1, true
		case c < 0x20:
			return dst, 0, false
		case c == '\\':
			if i+1 >= len(src) {
				return dst, 0, false
			}
			switch src[i+1] {
			case '"', '\\', '/':
				dst = append(dst, src[i+1])
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(src[i:])
				if r < 0 {
					return dst, 0, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if dec := utf16.DecodeRune(r, hex4(src[i:])); dec != unicode.ReplacementChar {
						dst = utf8.AppendRune(dst, dec)
						i += 6
						continue
					}
					r = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default:
				return dst, 0, false
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			var rb [utf8.UTFMax]byte
			r, size := utf8.DecodeRune(rb[:copy(rb[:], src[i:])])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, rb[:size]...)
			}
			i += size
		}
	}
	return dst, 0, false
}

// hex4 reads a `\uXXXX` escape at the start of s and returns its code
// unit, or -1 when s does not start with one.
func hex4[S ~string | ~[]byte](s S) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for k := 2; k < 6; k++ {
		c := s[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
