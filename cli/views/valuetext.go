package views

import (
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// ValueStyle is one of the ways OpenTofu writes a whole value as text
// (outside a diff): the console, `output` and apply's "Outputs:", and
// `test -verbose`. They agree on collections (tolist, toset, tomap, two
// spaces a level) and differ only in how keys and multi-line strings look.
type ValueStyle int

const (
	// OutputStyle: every key quoted and unaligned; a multi-line string is
	// a heredoc, indented (<<-EOT) when nested.
	OutputStyle ValueStyle = iota
	// ConsoleStyle: every key quoted and unaligned; a multi-line string is
	// a heredoc, indented (<<-EOT) when nested; a null shows its type.
	ConsoleStyle
	// AttributeStyle: object keys bare where they are identifiers and
	// aligned on "=", as in resource bodies.
	AttributeStyle
)

// FormatValue writes v as text in the given style, continuing nested
// lines at indent levels of two spaces.
func FormatValue(v cty.Value, style ValueStyle, indent int) string {
	var b strings.Builder
	style.write(&b, v, indent)
	return b.String()
}

func (s ValueStyle) write(b *strings.Builder, v cty.Value, indent int) {
	if s == ConsoleStyle && !v.IsKnown() {
		// The console tells an unknown value before a sensitive one.
		b.WriteString(UnknownText)
		return
	}
	if v.IsMarked() {
		if _, marks := v.Unmark(); len(marks) > 0 {
			b.WriteString(SensitiveText)
			return
		}
	}
	if !v.IsKnown() {
		b.WriteString(UnknownText)
		return
	}
	if v.IsNull() {
		if s == ConsoleStyle {
			b.WriteString(consoleNull(v.Type()))
			return
		}
		b.WriteString("null")
		return
	}
	ty := v.Type()
	pad := strings.Repeat("  ", indent+1)
	closePad := strings.Repeat("  ", indent)
	switch {
	case ty == cty.String:
		s.writeString(b, v.AsString(), closePad, indent)
	case ty == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		prefix, suffix := "", ""
		switch {
		case ty.IsListType():
			prefix, suffix = "tolist(", ")"
		case ty.IsSetType():
			prefix, suffix = "toset(", ")"
		}
		b.WriteString(prefix)
		if v.LengthInt() == 0 {
			b.WriteString("[]" + suffix)
			return
		}
		b.WriteString("[\n")
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			b.WriteString(pad)
			s.write(b, e, indent+1)
			b.WriteString(",\n")
		}
		b.WriteString(closePad + "]" + suffix)
	case ty.IsMapType() || ty.IsObjectType():
		prefix, suffix := "", ""
		if ty.IsMapType() {
			prefix, suffix = "tomap(", ")"
		}
		b.WriteString(prefix)
		if v.LengthInt() == 0 {
			b.WriteString("{}" + suffix)
			return
		}
		var keys []string
		var vals []cty.Value
		width := 0
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			key := s.key(k.AsString(), ty.IsMapType())
			if s == ConsoleStyle {
				key = consoleString(k.AsString(), indent+1)
			}
			width = max(width, len(key))
			keys = append(keys, key)
			vals = append(vals, e)
		}
		b.WriteString("{\n")
		for i, key := range keys {
			b.WriteString(pad)
			b.WriteString(key)
			if s == AttributeStyle {
				b.WriteString(strings.Repeat(" ", width-len(key)))
			}
			b.WriteString(" = ")
			s.write(b, vals[i], indent+1)
			b.WriteString("\n")
		}
		b.WriteString(closePad + "}" + suffix)
	default:
		b.WriteString(ty.FriendlyName())
	}
}

func (s ValueStyle) key(k string, inMap bool) string {
	if s == AttributeStyle && !inMap && IsIdentifier(k) {
		return k
	}
	if s == AttributeStyle {
		return QuoteString(k)
	}
	return strconv.Quote(k)
}

func (s ValueStyle) writeString(b *strings.Builder, str, closePad string, indent int) {
	switch s {
	case ConsoleStyle:
		b.WriteString(consoleString(str, indent))
		return
	case AttributeStyle:
		if !strings.Contains(str, "\n") || strings.Contains(str, "\nEOT\n") {
			b.WriteString(QuoteString(str))
			return
		}
	default:
		if !strings.Contains(str, "\n") {
			b.WriteString(strconv.Quote(str))
			return
		}
	}
	if s == OutputStyle && indent > 0 {
		b.WriteString("<<-EOT\n")
		for _, line := range strings.Split(str, "\n") {
			b.WriteString(closePad + line + "\n")
		}
		b.WriteString(closePad + "EOT")
		return
	}
	b.WriteString("<<EOT\n" + str)
	if s == OutputStyle {
		// Output heredocs at the top level always end their text with a
		// line break of their own.
		b.WriteString("\nEOT")
		return
	}
	if !strings.HasSuffix(str, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("EOT")
}

// consoleString writes a string as OpenTofu's console does: quoted on one
// line, or a heredoc whose every line, closing delimiter included, is
// indented to the depth it is nested at. The delimiter grows "_" until no
// line of the text could be read as its end.
func consoleString(str string, indent int) string {
	lines := strings.Split(str, "\n")
	if len(lines) < 2 {
		return strconv.Quote(str)
	}
	operator := "<<"
	if indent > 0 {
		operator = "<<-"
	}
	delimiter := "EOT"
	for slices.ContainsFunc(lines, func(line string) bool { return strings.TrimSpace(line) == delimiter }) {
		delimiter += "_"
	}
	pad := strings.Repeat("  ", indent)
	var b strings.Builder
	b.WriteString(operator + delimiter)
	for _, line := range lines {
		b.WriteString("\n" + pad + line)
	}
	b.WriteString("\n" + pad + delimiter)
	return b.String()
}

// consoleNull writes a null as the console does: with the conversion that
// gives it its type, so that tostring(null) and null are told apart.
func consoleNull(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "null"
	case ty.IsPrimitiveType():
		return "to" + ty.FriendlyName() + "(null)"
	case ty.IsListType():
		return "tolist(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsSetType():
		return "toset(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsMapType():
		return "tomap(null) /* of " + ty.ElementType().FriendlyName() + " */"
	}
	return "null /* " + ty.FriendlyName() + " */"
}
