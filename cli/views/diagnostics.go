package views

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// DiagnosticMessage is the JSON UI form of a diagnostic (§15).
type DiagnosticMessage struct {
	Severity string           `json:"severity"`
	Summary  string           `json:"summary"`
	Detail   string           `json:"detail"`
	Address  string           `json:"address,omitempty"`
	Range    *DiagnosticRange `json:"range,omitempty"`
	Snippet  *DiagnosticCode  `json:"snippet,omitempty"`
}

// DiagnosticRange is a source range; lines and columns count from 1, bytes
// from 0.
type DiagnosticRange struct {
	Filename string        `json:"filename"`
	Start    DiagnosticPos `json:"start"`
	End      DiagnosticPos `json:"end"`
}

// DiagnosticPos is one position in a source file.
type DiagnosticPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// DiagnosticCode is the source excerpt shown with a diagnostic.
type DiagnosticCode struct {
	// Context names the enclosing block, e.g. `resource "x" "y"`; nil when
	// there is none.
	Context              *string                 `json:"context"`
	Code                 string                  `json:"code"`
	StartLine            int                     `json:"start_line"`
	HighlightStartOffset int                     `json:"highlight_start_offset"`
	HighlightEndOffset   int                     `json:"highlight_end_offset"`
	Values               []DiagnosticExprValue   `json:"values"`
	FunctionCall         *DiagnosticFunctionCall `json:"function_call,omitempty"`
}

// DiagnosticExprValue describes the value of a variable in the expression.
type DiagnosticExprValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// DiagnosticFunctionCall names the function a diagnostic is about.
type DiagnosticFunctionCall struct {
	CalledAs  string `json:"called_as"`
	Signature any    `json:"signature,omitempty"`
}

// DiagnosticJSON converts a diagnostic to its JSON UI payload; files (by
// filename) supply the source for the snippet and may be nil.
func DiagnosticJSON(d *hcl.Diagnostic, files map[string]*hcl.File) DiagnosticMessage {
	d = redactSensitive(d)
	m := DiagnosticMessage{Severity: "error", Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		m.Severity = "warning"
	}
	m.Address = resourceAddressOf(d)
	if d.Subject == nil {
		return m
	}
	subj := *d.Subject
	if subj.Empty() {
		// As OpenTofu: an empty range is reported one byte wide, as the
		// excerpt underlines it.
		subj.End.Byte++
		subj.End.Column++
	}
	m.Range = &DiagnosticRange{
		Filename: subj.Filename,
		Start:    DiagnosticPos{Line: subj.Start.Line, Column: subj.Start.Column, Byte: subj.Start.Byte},
		End:      DiagnosticPos{Line: subj.End.Line, Column: subj.End.Column, Byte: subj.End.Byte},
	}
	if ex := excerptOf(d, files); ex != nil {
		m.Snippet = &DiagnosticCode{
			Code:                 string(ex.code),
			StartLine:            ex.startLine,
			HighlightStartOffset: ex.hlStart,
			HighlightEndOffset:   ex.hlEnd,
			Values:               []DiagnosticExprValue{},
		}
		// The same values the human view lists under the excerpt.
		for _, v := range expressionValueParts(d) {
			m.Snippet.Values = append(m.Snippet.Values, DiagnosticExprValue{Traversal: v.name, Statement: v.statement})
		}
		if call := calledFunctionOf(d); call != nil {
			m.Snippet.FunctionCall = call.json()
		}
		if ex.context != "" {
			ctx := ex.context
			m.Snippet.Context = &ctx
		}
	}
	return m
}

// resourceAddressOf gives the resource instance a diagnostic is about
// (the engine's provider diagnostics carry it), or "".
func resourceAddressOf(d *hcl.Diagnostic) string {
	if a, ok := d.Extra.(interface{ DiagnosticResourceAddress() string }); ok {
		return a.DiagnosticResourceAddress()
	}
	return ""
}

// excerpt is the whole source lines a diagnostic covers.
type excerpt struct {
	context        string
	code           []byte
	startLine      int
	hlStart, hlEnd int // subject offsets within code
}

func excerptOf(d *hcl.Diagnostic, files map[string]*hcl.File) *excerpt {
	if d.Subject == nil || files == nil {
		return nil
	}
	f := files[d.Subject.Filename]
	if f == nil || f.Bytes == nil {
		return nil
	}
	src := f.Bytes
	// As OpenTofu: an empty subject is widened to one byte; the excerpt is
	// every non-empty line the subject (and its context) overlaps, so a
	// range ending at a line's first byte shows that line too.
	hl := *d.Subject
	if hl.Empty() {
		hl.End.Byte++
	}
	rng := hl
	if d.Context != nil && d.Context.Filename == rng.Filename {
		rng = hcl.RangeOver(rng, *d.Context)
	}
	if rng.Empty() {
		rng.End.Byte++
	}
	var code []byte
	codeStart, startLine := -1, 0
	// Lines before the one holding the range's start cannot overlap it.
	from := clampInt(rng.Start.Byte, 0, len(src))
	lineStart := bytes.LastIndexByte(src[:from], '\n') + 1
	line := 1 + bytes.Count(src[:lineStart], []byte{'\n'})
	for ; lineStart < len(src) && lineStart <= rng.End.Byte; line++ {
		next := len(src)
		if i := bytes.IndexByte(src[lineStart:], '\n'); i >= 0 {
			next = lineStart + i + 1
		}
		text := bytes.TrimRight(src[lineStart:next], "\r\n")
		lr := hcl.Range{Filename: rng.Filename, Start: hcl.Pos{Byte: lineStart}, End: hcl.Pos{Byte: lineStart + len(text)}}
		if lr.Overlaps(rng) {
			if codeStart < 0 {
				codeStart, startLine = lineStart, line
			} else {
				code = append(code, '\n')
			}
			code = append(code, text...)
		}
		lineStart = next
	}
	if codeStart < 0 {
		return nil
	}
	hlStart := clampInt(hl.Start.Byte-codeStart, 0, len(code))
	ex := &excerpt{
		code:      code,
		startLine: startLine,
		hlStart:   hlStart,
		hlEnd:     clampInt(hl.Start.Byte-codeStart+hl.End.Byte-hl.Start.Byte, hlStart, len(code)),
	}
	if nav, ok := f.Nav.(interface{ ContextString(int) string }); ok {
		ex.context = nav.ContextString(d.Subject.Start.Byte)
		// A subject that is the block's own header names no context (as
		// OpenTofu): the excerpt already shows it.
		at := clampInt(d.Subject.Start.Byte, 0, len(src))
		lineStart, lineEnd := bytes.LastIndexByte(src[:at], '\n')+1, len(src)
		if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
			lineEnd = at + i
		}
		if ex.context != "" && bytes.HasPrefix(bytes.TrimLeft(src[at:lineEnd], " \t"), []byte(ex.context)) &&
			len(bytes.TrimSpace(src[lineStart:at])) == 0 {
			ex.context = ""
		}
	}
	return ex
}

func clampInt(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// RenderDiagnostics writes diagnostics in a framed block per diagnostic:
// severity and summary, the source excerpt with its enclosing block, and
// the detail wrapped to width (0: no wrapping).
func RenderDiagnostics(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File, color bool, width int) error {
	var b strings.Builder
	for _, d := range diags {
		renderDiagnostic(&b, d, files, color, width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func renderDiagnostic(b *strings.Builder, d *hcl.Diagnostic, files map[string]*hcl.File, color bool, width int) {
	d = redactSensitive(d)
	if color {
		renderDiagnosticFramed(b, d, files, width, true)
		return
	}
	var body strings.Builder
	body.WriteString(diagnosticLabel(d))
	body.WriteString(d.Summary)
	body.WriteString("\n")
	writeDiagnosticSource(&body, d, files, false)
	if d.Detail != "" {
		body.WriteString("\n")
		writeDetail(&body, d.Detail, width, 1)
	}
	// Without colour, as OpenTofu: no frame, a blank line before, and a
	// blank line closes the summary (or excerpt) when no detail follows.
	if d.Detail == "" {
		body.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(body.String())
}

// writeDetail writes detail and a newline, wrapped margin columns short
// of width when width leaves room for that.
func writeDetail(body *strings.Builder, detail string, width, margin int) {
	wrapAt := 0
	if width > margin {
		wrapAt = width - margin
	}
	body.WriteString(wrapDetail(detail, wrapAt))
	body.WriteString("\n")
}

func diagnosticLabel(d *hcl.Diagnostic) string {
	if d.Severity == hcl.DiagWarning {
		return "Warning: "
	}
	return "Error: "
}

// RenderDiagnosticsFramed draws diagnostics framed but without colour, as
// OpenTofu draws the problems it finds before a command starts (those of
// the CLI configuration).
func RenderDiagnosticsFramed(w io.Writer, diags hcl.Diagnostics, width int) error {
	var b strings.Builder
	for _, d := range diags {
		renderDiagnosticFramed(&b, redactSensitive(d), nil, width, false)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// renderDiagnosticFramed draws a diagnostic in a frame. In colour, the
// frame has its severity's colour, byte for byte as OpenTofu draws it,
// resets included: each line of the body after the frame's bar, the
// summary bold, the subject underlined and the expression values' guide
// dark grey. Without colour, a blank line of the body is the bar alone.
func renderDiagnosticFramed(b *strings.Builder, d *hcl.Diagnostic, files map[string]*hcl.File, width int, color bool) {
	frame := "red"
	if d.Severity == hcl.DiagWarning {
		frame = "yellow"
	}
	var body strings.Builder
	body.WriteString(Colorize("[bold]["+frame+"]"+diagnosticLabel(d)+"[reset]", color))
	if color {
		body.WriteString(ANSIBold + d.Summary + ANSIReset + "\n\n" + ANSIReset)
	} else {
		body.WriteString(d.Summary + "\n\n")
	}
	wroteSource := writeDiagnosticSource(&body, d, files, color)
	if d.Detail != "" {
		if wroteSource {
			body.WriteString("\n")
		}
		// OpenTofu wraps a framed detail three columns short of the width.
		writeDetail(&body, d.Detail, width, 3)
	} else if wroteSource {
		// Without a detail, OpenTofu still closes the excerpt with an
		// empty line of the frame.
		body.WriteString("\n")
	}
	bar := Colorize("["+frame+"]│[reset] ", color)
	b.WriteString(Colorize("["+frame+"]╷[reset]", color))
	b.WriteString("\n")
	for _, line := range strings.Split(strings.TrimSuffix(body.String(), "\n"), "\n") {
		if !color && line == "" {
			b.WriteString("│\n")
			continue
		}
		b.WriteString(bar)
		b.WriteString(line)
		b.WriteString("\n")
	}
	b.WriteString(Colorize("["+frame+"]╵[reset]", color))
	b.WriteString("\n")
}

// writeDiagnosticSource writes where a diagnostic points: the source
// excerpt with the subject (underlined with colour) and the values of the
// expression's references, or a note that the source is not available.
// It reports whether it wrote anything.
func writeDiagnosticSource(body *strings.Builder, d *hcl.Diagnostic, files map[string]*hcl.File, color bool) bool {
	ex := excerptOf(d, files)
	if ex == nil {
		if d.Subject == nil {
			return false
		}
		if !color {
			body.WriteString("\n")
		}
		fmt.Fprintf(body, "  on %s line %d:\n", d.Subject.Filename, d.Subject.Start.Line)
		body.WriteString("  (source code not available)\n")
		return true
	}
	if !color {
		body.WriteString("\n")
	}
	if addr := resourceAddressOf(d); addr != "" {
		fmt.Fprintf(body, "  with %s,\n", addr)
	}
	fmt.Fprintf(body, "  on %s line %d", d.Subject.Filename, d.Subject.Start.Line)
	if ex.context != "" {
		fmt.Fprintf(body, ", in %s", ex.context)
	}
	body.WriteString(":\n")
	code := string(ex.code)
	if color {
		// One underline from the subject's start to its end, across lines
		// if it spans several, and a reset closing the excerpt; an empty
		// subject still gets its (empty) underline, as in OpenTofu.
		code = code[:ex.hlStart] + ANSIUnderline + code[ex.hlStart:ex.hlEnd] + ANSIReset + code[ex.hlEnd:] + ANSIReset
	}
	for i, line := range strings.Split(code, "\n") {
		fmt.Fprintf(body, "%4d: %s\n", ex.startLine+i, line)
	}
	values := expressionValueParts(d)
	call := calledFunctionOf(d)
	if len(values) > 0 || call != nil {
		if color {
			// Each piece OpenTofu colours ends with a reset, after the
			// newline where there is one; the call's parameters are
			// written uncoloured, after it.
			body.WriteString("    " + ANSIDarkGray + "├────────────────" + ANSIReset + "\n" + ANSIReset)
			if call != nil {
				body.WriteString("    " + ANSIDarkGray + "│" + ANSIReset + " while calling " + ANSIBold + call.calledAs + ANSIReset + "(" + ANSIReset + strings.TrimPrefix(call.callLine(), call.calledAs+"(") + "\n")
			}
			for _, v := range values {
				body.WriteString("    " + ANSIDarkGray + "│" + ANSIReset + " " + ANSIBold + v.name + ANSIReset + " " + v.statement + "\n" + ANSIReset)
			}
		} else {
			body.WriteString("    ├────────────────\n")
			if call != nil {
				body.WriteString("    │ while calling " + call.callLine() + "\n")
			}
			for _, v := range values {
				body.WriteString("    │ " + v.name + " " + v.statement + "\n")
			}
		}
	}
	return true
}

// wrapDetail wraps prose paragraphs, leaving lines that start with a space
// (preformatted examples) as they are.
func wrapDetail(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") || len(l) <= width {
			continue
		}
		lines[i] = WordWrap(l, width)
	}
	return strings.Join(lines, "\n")
}

// expressionValues describes the values the references in a diagnostic's
// expression had, e.g. `var.n is 1`, sorted and each once.
func expressionValues(d *hcl.Diagnostic) []string {
	var out []string
	for _, v := range expressionValueParts(d) {
		out = append(out, v.name+" "+v.statement)
	}
	return out
}

// exprValue is a reference of a diagnostic's expression and what its
// value is ("is 1").
type exprValue struct{ name, statement string }

func expressionValueParts(d *hcl.Diagnostic) []exprValue {
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []exprValue
	for _, tr := range d.Expression.Variables() {
		// A reference that cannot be followed (often the diagnostic's own
		// cause) is described by its longest prefix that can, down to its
		// root, as OpenTofu does.
		for ; len(tr) > 0; tr = tr[:len(tr)-1] {
			v, diags := tr.TraverseAbs(d.EvalContext)
			if diags.HasErrors() {
				continue
			}
			if v.IsMarked() {
				// Not even mentioned, as OpenTofu does when the value is
				// not what the diagnostic is about: readers would take it
				// for the cause.
				break
			}
			if name := traversalString(tr); name != "" && !seen[name] {
				seen[name] = true
				out = append(out, exprValue{name, describeValue(v)})
			}
			break
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].name+" "+out[i].statement < out[j].name+" "+out[j].statement
	})
	return out
}

func traversalString(tr hcl.Traversal) string {
	var b strings.Builder
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString(".")
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			k := s.Key
			switch {
			case k.Type() == cty.String && k.IsKnown() && !k.IsNull():
				fmt.Fprintf(&b, "[%q]", k.AsString())
			case k.Type() == cty.Number && k.IsKnown() && !k.IsNull():
				fmt.Fprintf(&b, "[%s]", k.AsBigFloat().Text('f', -1))
			default:
				return ""
			}
		default:
			return ""
		}
	}
	return b.String()
}

// describeValue says what an unmarked value is, as in "is 1" or "is a
// string" (not known yet).
func describeValue(v cty.Value) string {
	ty := v.Type()
	if !v.IsKnown() {
		if ty == cty.DynamicPseudoType {
			return "will be known only after apply"
		}
		return "is a " + ty.FriendlyName()
	}
	if v.IsNull() {
		return "is null"
	}
	switch {
	case ty == cty.String:
		return "is " + strconv.Quote(v.AsString())
	case ty == cty.Number:
		return "is " + v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return "is " + strconv.FormatBool(v.True())
	case ty.IsCollectionType() || ty.IsTupleType():
		// A tuple's friendly name is just "tuple".
		n := v.LengthInt()
		if n == 0 {
			return "is empty " + ty.FriendlyName()
		}
		return fmt.Sprintf("is %s with %s", ty.FriendlyName(), counted(n, "element"))
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		switch len(atys) {
		case 0:
			return "is object with no attributes"
		case 1:
			for name := range atys {
				return fmt.Sprintf("is object with 1 attribute %q", name)
			}
		}
		return "is object with " + counted(len(atys), "attribute")
	}
	return "is a " + ty.FriendlyName()
}

// counted is n and noun, in the plural unless n is 1.
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
