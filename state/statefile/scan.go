package statefile

import "github.com/tenetplan/tenet/internal/jsontext"

// scanner is the shared JSON lexer with the state file's own readings
// (keys, string and integer fields) added in fastread.go. It declines
// numbers with a huge exponent, so that the reference reader reports
// them (see maxExponent).
type scanner struct {
	jsontext.Scanner[[]byte]
}

func newScanner(src []byte) scanner {
	return scanner{jsontext.Scanner[[]byte]{Src: src, DeclineNumber: hugeExponent}}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
