package jsontext

// NumberEnd returns the index just past the JSON number that starts at
// src[i], or -1 when none starts there (JSON's grammar: an optional minus,
// an integer without leading zeros, an optional fraction and exponent).
func NumberEnd[S ~string | ~[]byte](src S, i int) int {
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i >= len(src):
		return -1
	case src[i] == '0':
		i++
	case '1' <= src[i] && src[i] <= '9':
		i = digitsEnd(src, i)
	default:
		return -1
	}
	if i < len(src) && src[i] == '.' {
		if i = digitsEnd(src, i+1); i < 0 {
			return -1
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i = digitsEnd(src, i); i < 0 {
			return -1
		}
	}
	return i
}

// digitsEnd returns the index after the digits starting at src[i], or -1
// when there is none.
func digitsEnd[S ~string | ~[]byte](src S, i int) int {
	start := i
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
