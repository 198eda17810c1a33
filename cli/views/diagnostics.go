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
	rng := *d.Subject
	if d.Context != nil && d.Context.Filename == rng.Filename {
		rng = hcl.RangeOver(rng, *d.Context)
	}
	start, end := clampInt(rng.Start.Byte, 0, len(src)), clampInt(rng.End.Byte, 0, len(src))
	if end < start {
		end = start
	}
	if end > start && src[end-1] == '\n' {
		end-- // a range ending at a line break ends on that line
	}
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	lineEnd := len(src)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		lineEnd = end + i
	}
	ex := &excerpt{
		code:      src[lineStart:lineEnd],
		startLine: 1 + bytes.Count(src[:lineStart], []byte{'\n'}),
		hlStart:   clampInt(d.Subject.Start.Byte-lineStart, 0, lineEnd-lineStart),
		hlEnd:     clampInt(d.Subject.End.Byte-lineStart, 0, lineEnd-lineStart),
	}
	if nav, ok := f.Nav.(interface{ ContextString(int) string }); ok {
		ex.context = nav.ContextString(d.Subject.Start.Byte)
		// A subject that is the block's own header names no context (as
		// OpenTofu): the excerpt already shows it.
		if ex.context != "" && bytes.HasPrefix(bytes.TrimLeft(src[d.Subject.Start.Byte:lineEnd], " \t"), []byte(ex.context)) &&
			len(bytes.TrimSpace(src[lineStart:d.Subject.Start.Byte])) == 0 {
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
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ANSIReset
	}
	frameColor, label := ANSIRed, "Error: "
	if d.Severity == hcl.DiagWarning {
		frameColor, label = ANSIYellow, "Warning: "
	}
	bar := paint(frameColor, "│") + " "
	var body strings.Builder
	body.WriteString(paint(ANSIBold+frameColor, label))
	body.WriteString(paint(ANSIBold, d.Summary))
	body.WriteString("\n")
	if ex := excerptOf(d, files); ex != nil {
		body.WriteString("\n")
		if addr := resourceAddressOf(d); addr != "" {
			fmt.Fprintf(&body, "  with %s,\n", addr)
		}
		fmt.Fprintf(&body, "  on %s line %d", d.Subject.Filename, d.Subject.Start.Line)
		if ex.context != "" {
			fmt.Fprintf(&body, ", in %s", ex.context)
		}
		body.WriteString(":\n")
		offset := 0
		for i, line := range strings.Split(string(ex.code), "\n") {
			lo, hi := ex.hlStart-offset, ex.hlEnd-offset
			text := line
			if color && hi > 0 && lo < len(line) {
				lo, hi = clampInt(lo, 0, len(line)), clampInt(hi, 0, len(line))
				text = line[:lo] + "\x1b[4m" + line[lo:hi] + ANSIReset + line[hi:]
			}
			fmt.Fprintf(&body, "%4d: %s\n", ex.startLine+i, text)
			offset += len(line) + 1
		}
		if values := expressionValues(d); len(values) > 0 {
			body.WriteString("    ├────────────────\n")
			for _, v := range values {
				body.WriteString("    │ ")
				body.WriteString(v)
				body.WriteString("\n")
			}
		}
	} else if d.Subject != nil {
		body.WriteString("\n")
		fmt.Fprintf(&body, "  on %s line %d:\n", d.Subject.Filename, d.Subject.Start.Line)
		body.WriteString("  (source code not available)\n")
	}
	if d.Detail != "" {
		body.WriteString("\n")
		detailWidth := 0
		switch {
		case !color && width > 1:
			detailWidth = width - 1
		case width > 2:
			detailWidth = width - 2
		}
		body.WriteString(wrapDetail(d.Detail, detailWidth))
		body.WriteString("\n")
	}
	if !color {
		// Without colour, as OpenTofu: no frame, a blank line before, and
		// a blank line closes the summary (or excerpt) when no detail
		// follows.
		if d.Detail == "" {
			body.WriteString("\n")
		}
		b.WriteString("\n")
		b.WriteString(body.String())
		return
	}
	b.WriteString(paint(frameColor, "╷"))
	b.WriteString("\n")
	for _, line := range strings.Split(strings.TrimSuffix(body.String(), "\n"), "\n") {
		if line == "" {
			b.WriteString(strings.TrimRight(bar, " ") + "\n")
			continue
		}
		b.WriteString(bar)
		b.WriteString(line)
		b.WriteString("\n")
	}
	b.WriteString(paint(frameColor, "╵"))
	b.WriteString("\n")
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
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, tr := range d.Expression.Variables() {
		name := traversalString(tr)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		v, diags := tr.TraverseAbs(d.EvalContext)
		if diags.HasErrors() {
			continue
		}
		out = append(out, name+" "+describeValue(v))
	}
	sort.Strings(out)
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

// describeValue says what a value is, as in "is 1", "is a string" (not
// known yet) or "has a sensitive value".
func describeValue(v cty.Value) string {
	if v.IsMarked() {
		return "has a sensitive value"
	}
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
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		n := v.LengthInt()
		if n == 0 {
			return "is empty " + ty.FriendlyName()
		}
		noun := "elements"
		if n == 1 {
			noun = "element"
		}
		return fmt.Sprintf("is %s with %d %s", ty.FriendlyName(), n, noun)
	case ty.IsTupleType():
		n := v.LengthInt()
		if n == 0 {
			return "is empty tuple"
		}
		noun := "elements"
		if n == 1 {
			noun = "element"
		}
		return fmt.Sprintf("is tuple with %d %s", n, noun)
	case ty.IsObjectType():
		n := len(ty.AttributeTypes())
		if n == 0 {
			return "is object with no attributes"
		}
		noun := "attributes"
		if n == 1 {
			noun = "attribute"
		}
		return fmt.Sprintf("is object with %d %s", n, noun)
	}
	return "is a " + ty.FriendlyName()
}
