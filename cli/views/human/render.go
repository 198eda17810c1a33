package human

import (
	"encoding/json"

	"strconv"
	"strings"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// valueMarks are the marks drawn after values, without and with colour
// (indexed by printer.color), built once from their colour templates
// (views.Colorize) as they are drawn for many lines.
var valueMarks = [2]struct{ forces, null, arrow string }{
	{views.Colorize(forcesTemplate, false), views.Colorize(nullTemplate, false), views.Colorize(arrowTemplate, false)},
	{views.Colorize(forcesTemplate, true), views.Colorize(nullTemplate, true), views.Colorize(arrowTemplate, true)},
}

const (
	forcesTemplate = "[red]# forces replacement[reset]"
	nullTemplate   = "[dark_gray]-> null[reset]"
	arrowTemplate  = "[yellow]->[reset]"
)

func (p *printer) marks() int {
	if p.color {
		return 1
	}
	return 0
}

// printer accumulates rendered text. Nesting level L starts with 4*L
// spaces followed by a four-column action symbol field, so a child's symbol
// lines up under its parent's key.
type printer struct {
	strings.Builder
	color bool
	// hideSymbols and noNullSuffix draw a forgotten object: its values
	// without the symbols and the "-> null" of a deletion.
	hideSymbols  bool
	noNullSuffix bool
	// showUnchanged shows every attribute (imports).
	showUnchanged bool
	scratch       []byte
}

func (p *printer) paint(code, s string) string {
	if !p.color || s == "" {
		return s
	}
	return code + s + views.ANSIReset
}

func (p *printer) bold(s string) string { return p.paint(views.ANSIBold, s) }

// colorize expands a message template's colour tags (views.Colorize).
func (p *printer) colorize(template string) string { return views.Colorize(template, p.color) }

func (p *printer) indent(level int) {
	for i := 0; i < level; i++ {
		p.WriteString("    ")
	}
}

// symbolField is the four-column symbol of an action and the space after
// it, with colour.
func (p *printer) symbolField(a action.Action) string {
	if p.hideSymbols {
		return "" // as OpenTofu draws a forgotten object
	}
	if a < 0 || int(a) >= len(plainSymbols) {
		return "    "
	}
	if p.color {
		return colorSymbols[a]
	}
	return plainSymbols[a]
}

// symbolTemplates are the action symbols as colour templates
// (views.Colorize), four columns wide.
var symbolTemplates = [action.Forget + 1]string{
	action.Create:           "  [green]+[reset]",
	action.Update:           "  [yellow]~[reset]",
	action.Delete:           "  [red]-[reset]",
	action.DeleteThenCreate: "[red]-[reset]/[green]+[reset]",
	action.CreateThenDelete: "[green]+[reset]/[red]-[reset]",
	action.Read:             " [cyan]<=[reset]",
	action.Forget:           "  [red].[reset]",
}

// legendLine is a line of the symbol legend: the symbol and its meaning.
func (p *printer) legendLine(a action.Action, text string) string {
	return p.colorize(symbolTemplates[a] + " " + text)
}

// plainSymbols and colorSymbols are the symbol fields by action, built once
// as drawing them is done for every line. As OpenTofu's, a coloured symbol
// is followed by a reset of its own.
var plainSymbols, colorSymbols = symbolFields(false), symbolFields(true)

func symbolFields(color bool) [action.Forget + 1]string {
	var out [action.Forget + 1]string
	for a := range out {
		if symbolTemplates[a] == "" {
			out[a] = "    "
			continue
		}
		out[a] = views.Colorize(symbolTemplates[a], color) + " "
	}
	return out
}

// linePrefix starts a line at level with the symbol of a.
func (p *printer) linePrefix(level int, a action.Action) {
	p.indent(level)
	p.WriteString(p.symbolField(a))
}

func (p *printer) forces(n *diffNode) {
	if n.replace {
		p.WriteString(" ")
		p.WriteString(valueMarks[p.marks()].forces)
	}
}

// nullSuffix writes the " -> null" that ends a deleted value.
func (p *printer) nullSuffix() {
	p.WriteString(" ")
	p.WriteString(valueMarks[p.marks()].null)
}

// arrow writes the " -> " between a primitive's old and new value.
func (p *printer) arrow() {
	p.WriteString(" ")
	p.WriteString(valueMarks[p.marks()].arrow)
	p.WriteString(" ")
}

// opening starts a collection value: when empty, the whole of it on this
// line (brackets is its empty form, "{}" or "[]") and false; otherwise the
// opening bracket and the end of the line, and true.
func (p *printer) opening(n *diffNode, empty bool, brackets string) bool {
	if empty {
		p.WriteString(brackets)
		if n.act == action.Delete && !p.noNullSuffix {
			p.nullSuffix()
		}
		p.forces(n)
		return false
	}
	p.WriteString(brackets[:1])
	p.forces(n)
	p.WriteString("\n")
	return true
}

// keyWidth is the widest key, to align the "=" of attributes drawn together.
func keyWidth(attrs []namedNode) int {
	width := 0
	for _, a := range attrs {
		width = max(width, len(a.key))
	}
	return width
}

// closing ends a multi-line value opened at level.
func (p *printer) closing(level int, n *diffNode, brace string) {
	p.linePrefix(level, action.NoOp)
	p.WriteString(brace)
	if n.act == action.Delete && !p.noNullSuffix {
		p.nullSuffix()
	}
}

func (p *printer) hiddenNote(level int, count int, noun string) {
	if count == 0 {
		return
	}
	p.linePrefix(level, action.NoOp)
	if count != 1 {
		noun += "s"
	}
	// Dark grey, with OpenTofu's two resets, when in colour.
	if p.color {
		p.WriteString(views.ANSIDarkGray)
	}
	p.WriteString("# (")
	p.WriteString(strconv.Itoa(count))
	p.WriteString(" unchanged ")
	p.WriteString(noun)
	p.WriteString(" hidden)")
	if p.color {
		p.WriteString(views.ANSIReset + views.ANSIReset)
	}
	p.WriteString("\n")
}

func (p *printer) shows(n *diffNode, important bool) bool {
	return n.act != action.NoOp || important || p.showUnchanged
}

// formatPrimitive renders a JSON primitive in HCL-like syntax.
func formatPrimitive(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return views.QuoteString(v)
	case json.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// writePrimitive writes formatPrimitive(v) without building the string.
func (p *printer) writePrimitive(v any) {
	if s, ok := v.(string); ok {
		p.writeQuoted(s)
		return
	}
	p.WriteString(formatPrimitive(v))
}

// writeQuoted writes views.QuoteString(s) through the printer's scratch buffer.
func (p *printer) writeQuoted(s string) {
	q := strconv.AppendQuote(p.scratch[:0], s)
	start := 0
	for i := 1; i < len(q); i++ {
		if q[i] == '{' && (q[i-1] == '$' || q[i-1] == '%') {
			p.Write(q[start:i])
			p.WriteByte(q[i-1])
			start = i
		}
	}
	p.Write(q[start:])
	p.scratch = q
}

// primitiveRenderer draws the node's before and after values.
type primitiveRenderer struct{}

func (primitiveRenderer) writeValue(p *printer, n *diffNode, level int) {
	switch n.act {
	case action.Create:
		p.writePrimitive(n.after)
	case action.Delete:
		p.writePrimitive(n.before)
		if !p.noNullSuffix {
			p.nullSuffix()
		}
	case action.Update:
		p.writePrimitive(n.before)
		p.arrow()
		p.writePrimitive(n.after)
	default:
		p.writePrimitive(n.after)
	}
	p.forces(n)
}

// sensitiveRenderer hides a value; becomes/stops say its sensitivity
// changes, which is warned about because later output will differ.
type sensitiveRenderer struct{ becomes, stops bool }

func (r sensitiveRenderer) warning() string {
	switch {
	case r.becomes:
		return "# Warning: this value becomes sensitive with this change and will be hidden in later output."
	case r.stops:
		return "# Warning: this value stops being sensitive with this change and will be shown in later output."
	}
	return ""
}

func (r sensitiveRenderer) writeValue(p *printer, n *diffNode, level int) {
	p.WriteString(views.SensitiveText)
	if n.act == action.Delete && !p.noNullSuffix {
		p.nullSuffix()
	}
	p.forces(n)
}

// revealedRenderer draws a sensitive value as its diff (-show-sensitive);
// the embedded sensitiveRenderer keeps the warning about its sensitivity.
type revealedRenderer struct {
	sensitiveRenderer
	inner *diffNode
}

func (r revealedRenderer) writeValue(p *printer, n *diffNode, level int) {
	r.inner.r.writeValue(p, r.inner, level)
}

// sensitivityWarning is the warning drawn above an attribute whose
// sensitivity changes, or "".
func sensitivityWarning(r nodeRenderer) string {
	switch r := r.(type) {
	case sensitiveRenderer:
		return r.warning()
	case revealedRenderer:
		return r.warning()
	}
	return ""
}

type unknownRenderer struct {
	before *diffNode // the value being replaced, nil when none
}

func (r unknownRenderer) writeValue(p *printer, n *diffNode, level int) {
	if r.before != nil {
		saved := p.noNullSuffix
		p.noNullSuffix = true
		before := *r.before
		before.act = action.Delete
		before.replace = false
		before.r.writeValue(p, &before, level)
		p.noNullSuffix = saved
		p.WriteString(" -> ")
	}
	p.WriteString(views.UnknownText)
	p.forces(n)
}

type typeChangeRenderer struct{ before, after *diffNode }

func (r typeChangeRenderer) writeValue(p *printer, n *diffNode, level int) {
	saved := p.noNullSuffix
	p.noNullSuffix = true
	r.before.r.writeValue(p, r.before, level)
	p.noNullSuffix = saved
	p.arrow()
	r.after.r.writeValue(p, r.after, level)
	p.forces(n)
}

// heredocRenderer draws multi-line strings as <<-EOT blocks, diffed by line.
type heredocRenderer struct{ before, after any }

func (r heredocRenderer) writeValue(p *printer, n *diffNode, level int) {
	if n.act == action.Update {
		if _, ok := r.before.(string); !ok {
			p.WriteString(formatPrimitive(r.before))
			p.arrow()
			r.writeLines(p, n, level, nil, splitLines(r.after))
			return
		}
		if _, ok := r.after.(string); !ok {
			r.writeLines(p, n, level, splitLines(r.before), nil)
			p.arrow()
			p.WriteString(formatPrimitive(r.after))
			return
		}
	}
	switch n.act {
	case action.Update:
		r.writeLines(p, n, level, splitLines(r.before), splitLines(r.after))
	case action.Delete:
		r.writeLines(p, n, level, splitLines(r.before), nil)
		if !p.noNullSuffix {
			p.nullSuffix()
		}
	default:
		r.writeLines(p, n, level, nil, splitLines(r.after))
	}
}

func (r heredocRenderer) writeLines(p *printer, n *diffNode, level int, before, after []string) {
	p.WriteString("<<-EOT")
	p.forces(n)
	p.WriteString("\n")
	line := func(a action.Action, s string) {
		p.linePrefix(level+1, a)
		p.WriteString(s)
		p.WriteString("\n")
	}
	switch {
	case before == nil:
		for _, s := range after {
			line(action.NoOp, s)
		}
	case after == nil:
		for _, s := range before {
			line(action.NoOp, s)
		}
	default:
		bs, as := toAny(before), toAny(after)
		for _, op := range sequenceOps(bs, as, nil, false) {
			switch {
			case op.bi < 0:
				line(action.Create, after[op.ai])
			case op.ai < 0:
				line(action.Delete, before[op.bi])
			default:
				line(action.NoOp, after[op.ai])
			}
		}
	}
	p.linePrefix(level, action.NoOp)
	p.WriteString("EOT")
}

func splitLines(v any) []string {
	s, _ := v.(string)
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// objectRenderer draws objects (bare or quoted attribute names) and maps
// (always quoted keys).
type objectRenderer struct {
	attrs []namedNode
	isMap bool
}

func (r *objectRenderer) writeValue(p *printer, n *diffNode, level int) {
	if !p.opening(n, len(r.attrs) == 0, "{}") {
		return
	}
	width := keyWidth(r.attrs)
	saved := p.noNullSuffix
	// An object's members are drawn without "-> null" (their "-" says
	// it); a map's elements have it unless the map itself goes away.
	p.noNullSuffix = saved || n.act == action.Delete || !r.isMap
	hidden := 0
	for _, a := range r.attrs {
		important := !r.isMap && a.important
		if !p.shows(a.node, important) {
			hidden++
			continue
		}
		writeNamedShowing(p, level+1, a, width, important)
	}
	p.noNullSuffix = saved
	noun := "attribute"
	if r.isMap {
		noun = "element"
	}
	p.hiddenNote(level+1, hidden, noun)
	p.closing(level, n, "}")
}

// writeNamedShowing is writeNamed, drawing the whole value, unchanged
// parts included, when all is set (important attributes).
func writeNamedShowing(p *printer, level int, a namedNode, width int, all bool) {
	saved := p.showUnchanged
	p.showUnchanged = saved || all
	writeNamed(p, level, a, width)
	p.showUnchanged = saved
}

// writeNamed writes `sym key = value` at level.
func writeNamed(p *printer, level int, a namedNode, width int) {
	if w := sensitivityWarning(a.node.r); w != "" {
		p.linePrefix(level, action.NoOp)
		p.WriteString(p.paint(views.ANSIYellow, w))
		p.WriteString("\n")
	}
	p.linePrefix(level, a.node.act)
	p.WriteString(a.key)
	for i := len(a.key); i < width; i++ {
		p.WriteByte(' ')
	}
	p.WriteString(" = ")
	a.node.r.writeValue(p, a.node, level)
	p.WriteString("\n")
}

// listRenderer draws lists, tuples and sets. Unchanged list elements next
// to a change stay visible as context; the rest are counted.
type listRenderer struct {
	elems []*diffNode
	set   bool
}

func (r *listRenderer) writeValue(p *printer, n *diffNode, level int) {
	if !p.opening(n, len(r.elems) == 0, "[]") {
		return
	}
	// A removed element's "-" already says it goes away.
	saved := p.noNullSuffix
	p.noNullSuffix = true
	hidden := 0
	for i, e := range r.elems {
		show := p.shows(e, false)
		if !show && !r.set && n.act == action.Update {
			show = (i > 0 && r.elems[i-1].act != action.NoOp) || (i+1 < len(r.elems) && r.elems[i+1].act != action.NoOp)
		}
		if !show {
			hidden++
			continue
		}
		p.hiddenNote(level+1, hidden, "element")
		hidden = 0
		p.linePrefix(level+1, e.act)
		// An unchanged element shown for context is shown whole.
		savedShow := p.showUnchanged
		p.showUnchanged = savedShow || e.act == action.NoOp
		e.r.writeValue(p, e, level+1)
		p.showUnchanged = savedShow
		p.WriteString(",\n")
	}
	p.noNullSuffix = saved
	p.hiddenNote(level+1, hidden, "element")
	p.closing(level, n, "]")
}

// blockRenderer draws a block body: attributes, then nested blocks.
type blockRenderer struct {
	attrs  []namedNode
	groups [][]blockEntry // one group per block type, in name order
}

func (r *blockRenderer) writeValue(p *printer, n *diffNode, level int) {
	if len(r.attrs) == 0 && len(r.groups) == 0 {
		p.WriteString("{")
		p.forces(n)
		p.WriteString("\n")
		p.linePrefix(level, action.NoOp)
		p.WriteString("}")
		return
	}
	p.WriteString("{")
	p.forces(n)
	p.WriteString("\n")
	width := keyWidth(r.attrs)
	hidden := 0
	for _, a := range r.attrs {
		if !p.shows(a.node, a.important) {
			hidden++
			continue
		}
		writeNamedShowing(p, level+1, a, width, a.important)
	}
	p.hiddenNote(level+1, hidden, "attribute")
	wroteSomething := len(r.attrs) > 0
	hiddenBlocks := 0
	for _, group := range r.groups {
		startedGroup := false
		for _, b := range group {
			if !p.shows(b.node, false) {
				hiddenBlocks++
				continue
			}
			if !startedGroup && wroteSomething {
				p.WriteString("\n")
			}
			startedGroup, wroteSomething = true, true
			p.linePrefix(level+1, b.node.act)
			p.WriteString(b.typeName)
			p.WriteString(b.label)
			p.WriteString(" ")
			b.node.r.writeValue(p, b.node, level+1)
			p.WriteString("\n")
		}
	}
	if hiddenBlocks > 0 {
		if wroteSomething {
			p.WriteString("\n")
		}
		p.hiddenNote(level+1, hiddenBlocks, "block")
	}
	// A block's own symbol already says it goes away: no "-> null".
	p.linePrefix(level, action.NoOp)
	p.WriteString("}")
}

type sensitiveBlockRenderer struct{}

func (sensitiveBlockRenderer) writeValue(p *printer, n *diffNode, level int) {
	p.WriteString("{")
	p.forces(n)
	p.WriteString("\n")
	p.linePrefix(level+1, action.NoOp)
	p.WriteString("# (this block holds sensitive values, so its contents are not shown)\n")
	p.closing(level, n, "}")
}

// jsonRenderer draws a string holding JSON as jsonencode(...) around the
// diff of the decoded values.
type jsonRenderer struct{ inner *diffNode }

func (r jsonRenderer) writeValue(p *printer, n *diffNode, level int) {
	p.WriteString("jsonencode(")
	p.forces(n)
	p.WriteString("\n")
	// The content's own symbol shows only for a change inside it.
	sym := action.NoOp
	if n.act == action.Update {
		sym = r.inner.act
	}
	p.linePrefix(level+1, sym)
	saved := p.noNullSuffix
	p.noNullSuffix = true
	r.inner.r.writeValue(p, r.inner, level+1)
	p.noNullSuffix = saved
	p.WriteString("\n")
	p.linePrefix(level, action.NoOp)
	p.WriteString(")")
	if n.act == action.Delete && !p.noNullSuffix {
		p.nullSuffix()
	}
}
