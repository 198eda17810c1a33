package views

import (
	"strconv"
	"strings"
)

// ANSI escapes for -no-color's opposite.
const (
	ANSIReset     = "\x1b[0m"
	ANSIBold      = "\x1b[1m"
	ANSIUnderline = "\x1b[4m"
	ANSIRed       = "\x1b[31m"
	ANSIGreen     = "\x1b[32m"
	ANSIYellow    = "\x1b[33m"
	ANSICyan      = "\x1b[36m"
	ANSILightGray = "\x1b[37m"
	ANSIDarkGray  = "\x1b[90m"
)

// colorTags are the tags Colorize expands.
var colorTags = map[string]string{
	"reset":      ANSIReset,
	"bold":       ANSIBold,
	"underline":  ANSIUnderline,
	"red":        ANSIRed,
	"green":      ANSIGreen,
	"yellow":     ANSIYellow,
	"cyan":       ANSICyan,
	"light_gray": ANSILightGray,
	"dark_gray":  ANSIDarkGray,
}

// Colorize expands the colour tags of a message template ("[bold]Plan:[reset]
// ..."). With color on, a template that holds any tag also ends with a
// reset, so that nothing it sets leaks into what follows; this is the byte
// sequence OpenTofu's human output has, down to its doubled resets. With
// color off the tags are removed. Only templates go through it: text from
// configurations, states or providers is concatenated around the result.
func Colorize(template string, color bool) string {
	if !strings.Contains(template, "[") {
		return template
	}
	var b strings.Builder
	tagged := false
	rest := template
	for {
		i := strings.IndexByte(rest, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], ']')
		if j < 0 {
			break
		}
		code, ok := colorTags[rest[i+1:i+j]]
		if !ok {
			b.WriteString(rest[:i+1])
			rest = rest[i+1:]
			continue
		}
		b.WriteString(rest[:i])
		if color {
			b.WriteString(code)
		}
		tagged = true
		rest = rest[i+j+1:]
	}
	b.WriteString(rest)
	if color && tagged {
		b.WriteString(ANSIReset)
	}
	return b.String()
}

// Placeholders for values a plan or a state does not show.
const (
	UnknownText   = "(known after apply)"
	SensitiveText = "(sensitive value)"
)

// IsIdentifier reports whether s can be written as a bare attribute name.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r == '-' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return true
}

// WordWrap breaks prose at spaces so lines stay within width. Lines break
// where OpenTofu's do: the product name is measured as long as OpenTofu's
// ("tenet" as "OpenTofu", the command "tenet" as "tofu"), so that the
// output matches OpenTofu's line for line apart from the name.
func WordWrap(s string, width int) string {
	var b strings.Builder
	for i, para := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		col := 0
		for j, word := range strings.Fields(para) {
			n := proseLen(word)
			if j > 0 {
				if col+1+n > width {
					b.WriteString("\n")
					col = 0
				} else {
					b.WriteString(" ")
					col++
				}
			}
			b.WriteString(word)
			col += n
		}
	}
	return b.String()
}

// proseLen is the length word would have in OpenTofu's wording.
func proseLen(word string) int {
	n := len(word)
	for rest := word; ; {
		i := strings.Index(rest, "tenet")
		if i < 0 {
			return n
		}
		if i > 0 && (rest[i-1] == '"' || rest[i-1] == '`') {
			n-- // a command line: "tofu apply" or `tofu refresh`
		} else {
			n += 3 // the name: OpenTofu
		}
		rest = rest[i+len("tenet"):]
	}
}

// QuoteString writes s as a quoted string of the configuration language.
func QuoteString(s string) string {
	q := strconv.Quote(s)
	// Template sequences would be read back as interpolation.
	q = strings.ReplaceAll(q, "${", "$${")
	return strings.ReplaceAll(q, "%{", "%%{")
}
