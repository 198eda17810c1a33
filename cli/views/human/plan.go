package human

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetplan/tenet/providers"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/cli/views"
)

// SchemaLookup finds the schema of a resource type so attribute types,
// nested blocks and sensitive attributes render as the provider describes
// them. providerName is the plan's provider_name (e.g.
// "registry.opentofu.org/hashicorp/aws"), mode "managed" or "data". It may
// return nil; the resource is then rendered from its JSON values alone.
type SchemaLookup interface {
	ResourceSchema(providerName, mode, typ string) *providers.Block
}

// RenderOptions controls the human plan rendering.
type RenderOptions struct {
	// Color turns on OpenTofu's ANSI bold and colours; off for -no-color
	// (and NO_COLOR).
	Color bool
	// Mode is the plan mode: ModeNormal ("" too), ModeDestroy or
	// ModeRefreshOnly. The plan document does not record it.
	Mode string
	// Width is where prose is wrapped and the width of the horizontal rule;
	// 0 means 78, the width used when output is not a terminal.
	Width int
	// NotApplyable is set when the plan cannot be applied; it changes the
	// hint shown when only drift was found.
	NotApplyable bool
	// ShowSensitive (-show-sensitive) draws sensitive values instead of
	// "(sensitive value)"; wholly sensitive blocks stay hidden, as in
	// OpenTofu.
	ShowSensitive bool
	// InAutomation (TF_IN_AUTOMATION) leaves the command to run out of
	// the hint shown when only drift was found, as OpenTofu does.
	InAutomation bool
}

const defaultWidth = 78

// RenderPlan writes the human rendering of a JSON plan document (the
// output of `show -json`, format 1.2), as `tenet plan` prints it. Large
// plans are decoded and drawn on all cores.
func RenderPlan(w io.Writer, planJSON []byte, schemas SchemaLookup, opts RenderOptions) error {
	return renderPlan(w, planJSON, schemas, opts, runtime.GOMAXPROCS(0))
}

// renderPlan is RenderPlan on up to workers goroutines.
func renderPlan(w io.Writer, planJSON []byte, schemas SchemaLookup, opts RenderOptions, workers int) error {
	// The document is dropped before returning and what is drawn is
	// copied out of it, so it may borrow planJSON's memory.
	doc, err := planjson.DecodeWith(planJSON, planjson.DecodeOptions{Workers: workers, Borrow: true})
	if err != nil {
		return err
	}
	r := planRenderer{doc: doc, schemas: newSchemaCache(schemas), opts: opts, p: &printer{color: opts.Color}, workers: workers}
	if r.opts.Width <= 0 {
		r.opts.Width = defaultWidth
	}
	if err := r.render(); err != nil {
		return err
	}
	r.cut()
	for _, s := range r.out {
		if _, err := io.WriteString(w, s); err != nil {
			return err
		}
	}
	return nil
}

type planRenderer struct {
	doc     *planjson.Document
	schemas *schemaCache
	opts    RenderOptions
	p       *printer
	// out holds text already taken from p, in order (see cut).
	out     []string
	workers int
	// the schema looked up last, and for which type
	lastKey    schemaKey
	lastSchema *blockInfo
	haveLast   bool
}

// cut moves what p holds to out, so text drawn elsewhere can follow it.
func (r *planRenderer) cut() {
	if r.p.Len() > 0 {
		r.out = append(r.out, r.p.String())
		r.p.Reset()
	}
}

// shownChange is a resource change that will be drawn.
type shownChange struct {
	rc  *planjson.ResourceChange
	act action.Action
}

func (r *planRenderer) schemaFor(rc *planjson.ResourceChange) *blockInfo {
	// Neighbouring changes are mostly of one type: skip the map then.
	k := schemaKey{rc.ProviderName, rc.Mode, rc.Type}
	if r.haveLast && r.lastKey == k {
		return r.lastSchema
	}
	r.lastKey, r.lastSchema, r.haveLast = k, r.schemas.lookup(k), true
	return r.lastSchema
}

func (r *planRenderer) render() error {
	p := r.p
	changes := make([]shownChange, 0, len(r.doc.ResourceChanges))
	var counts [action.Forget + 1]int
	imports, forgets := 0, 0
	anyAction := false
	for i := range r.doc.ResourceChanges {
		rc := r.doc.ResourceChanges[i]
		act, err := action.FromJSONActions(rc.Change.Actions)
		if err != nil {
			return fmt.Errorf("%s: %w", rc.Address, err)
		}
		if act == action.NoOp && !rc.Moved() && !rc.Importing() {
			continue
		}
		if act == action.Delete && rc.Mode == "data" {
			continue
		}
		changes = append(changes, shownChange{rc: rc, act: act})
		if rc.Importing() {
			imports++
		}
		if act != action.NoOp {
			anyAction = true
			counts[act]++
		}
		if act == action.Forget {
			forgets++
		}
	}
	// OpenTofu lists the changes of shallower modules first; the plan's
	// own order holds within one depth.
	sort.SliceStable(changes, func(i, j int) bool {
		return moduleDepth(changes[i].rc.ModuleAddress) < moduleDepth(changes[j].rc.ModuleAddress)
	})
	outputs, err := r.outputChanges()
	if err != nil {
		return err
	}
	empty := len(changes) == 0 && len(outputs) == 0

	drifted, err := r.renderDrift(empty)
	if err != nil {
		return err
	}

	if empty {
		r.renderNoChanges(drifted)
		return nil
	}
	if drifted {
		p.WriteString(r.rule())
	}
	if anyAction {
		p.WriteString("\n")
		p.WriteString(views.WordWrap("tenet used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", r.opts.Width-1))
		p.WriteString("\n")
		legend := []struct {
			acts []action.Action
			text string
		}{
			{[]action.Action{action.Create}, "create"},
			{[]action.Action{action.Update}, "update in-place"},
			{[]action.Action{action.Delete}, "destroy"},
			{[]action.Action{action.DeleteThenCreate}, "destroy and then create replacement"},
			{[]action.Action{action.CreateThenDelete}, "create replacement and then destroy"},
			{[]action.Action{action.Read}, "read (data resources)"},
			{[]action.Action{action.Forget}, "forget"},
		}
		for _, l := range legend {
			if counts[l.acts[0]] > 0 {
				p.WriteString(p.legendLine(l.acts[0], l.text))
				p.WriteString("\n")
			}
		}
	}
	if len(changes) > 0 {
		p.WriteString("\n")
		if r.doc.Errored {
			p.WriteString("tenet planned the following actions, but then encountered a problem:\n")
		} else {
			p.WriteString("tenet will perform the following actions:\n")
		}
		r.renderChanges(changes)
		add := counts[action.Create] + counts[action.DeleteThenCreate] + counts[action.CreateThenDelete]
		change := counts[action.Update]
		destroy := counts[action.Delete] + counts[action.DeleteThenCreate] + counts[action.CreateThenDelete]
		p.WriteString("\n")
		p.WriteString(p.bold("Plan:"))
		p.WriteString(" ")
		p.WriteString(views.PlanSummaryLine(imports, add, change, destroy, forgets))
		p.WriteString("\n")
		if p.color {
			p.WriteString(views.ANSIReset) // as OpenTofu, a reset starts the next line
		}
	}
	if len(outputs) > 0 {
		p.WriteString("\nChanges to Outputs:\n")
		r.renderOutputs(outputs)
		if !anyAction {
			p.WriteString("\n")
			p.WriteString(views.WordWrap("You can apply this plan to save these new output values to the tenet state, without changing any real infrastructure.", r.opts.Width-1))
			p.WriteString("\n")
		}
	}
	return nil
}

func (r *planRenderer) renderNoChanges(drifted bool) {
	p := r.p
	width := r.opts.Width
	headline := func(rest string) {
		p.WriteString("\n")
		p.WriteString(p.colorize("[reset][bold][green]No changes.[reset][bold] " + rest + "[reset]\n\n"))
	}
	if r.doc.Errored {
		p.WriteString("\n")
		p.WriteString(p.colorize("[reset][bold][red]Planning failed.[reset][bold] tenet encountered an error while generating this plan.[reset]\n\n"))
		return
	}
	switch r.opts.Mode {
	case views.ModeRefreshOnly:
		if drifted {
			return
		}
		headline("Your infrastructure still matches the configuration.")
		p.WriteString(views.WordWrap("tenet has checked that the real remote objects still match the result of your most recent changes, and found no differences.", width-1))
	case views.ModeDestroy:
		if drifted {
			p.WriteString(r.rule())
		}
		headline("No objects need to be destroyed.")
		p.WriteString(views.WordWrap("Either you have not created any objects yet or the existing objects were already deleted outside of tenet.", width-1))
	default:
		if drifted {
			p.WriteString(r.rule())
		}
		headline("Your infrastructure matches the configuration.")
		switch {
		case drifted && !r.opts.NotApplyable:
			if r.opts.InAutomation {
				p.WriteString(views.WordWrap("Your configuration already matches the changes detected above. If you'd like to update the tenet state to match, create and apply a refresh-only plan.", width-1))
			} else {
				p.WriteString(views.WordWrap("Your configuration already matches the changes detected above. If you'd like to update the tenet state to match, create and apply a refresh-only plan:", width-1))
				p.WriteString("\n  tenet apply -refresh-only")
			}
		case drifted:
			p.WriteString(views.WordWrap("Your configuration already matches the changes detected above.", width-1))
		default:
			p.WriteString(views.WordWrap("tenet has compared your real infrastructure against your configuration and found no differences, so no changes are needed.", width-1))
		}
	}
	p.WriteString("\n")
}

// renderDrift writes the "changed outside of tenet" section; it reports
// whether anything was written.
func (r *planRenderer) renderDrift(planEmpty bool) (bool, error) {
	refreshOnly := r.opts.Mode == views.ModeRefreshOnly
	if planEmpty && !refreshOnly {
		return false, nil
	}
	relevant := map[string][][]any{}
	for _, ra := range r.doc.RelevantAttributes {
		relevant[ra.Resource] = append(relevant[ra.Resource], ra.Attribute)
	}
	type driftItem struct {
		rc   *planjson.ResourceChange
		act  action.Action
		node *diffNode
	}
	var items []driftItem
	for i := range r.doc.ResourceDrift {
		rc := r.doc.ResourceDrift[i]
		act, err := action.FromJSONActions(rc.Change.Actions)
		if err != nil {
			return false, fmt.Errorf("%s: %w", rc.Address, err)
		}
		vc := r.valueChangeOf(rc)
		if !refreshOnly {
			paths, ok := relevant[rc.Address]
			if !ok {
				continue
			}
			m := newPathMatcher(paths)
			if !m.exact {
				vc.relevant = &m
			}
		}
		node := diffBlock(vc, r.schemaFor(rc))
		if node.act == action.NoOp && act != action.Delete {
			act = action.NoOp
		}
		if act == action.NoOp && (!refreshOnly || !rc.Moved()) {
			continue
		}
		items = append(items, driftItem{rc: rc, act: act, node: node})
	}
	if len(items) == 0 {
		return false, nil
	}
	p := r.p
	p.WriteString("\n")
	p.WriteString(p.colorize("[bold][cyan]Note:[reset][bold] Objects have changed outside of tenet\n"))
	p.WriteString("\n")
	p.WriteString(views.WordWrap(`tenet detected the following changes made outside of tenet since the last "tenet apply" which may have affected this plan:`, r.opts.Width-1))
	p.WriteString("\n")
	for _, it := range items {
		p.WriteString("\n")
		r.writeResource(it.rc, it.act, it.node, true)
	}
	p.WriteString("\n\n")
	if refreshOnly {
		p.WriteString(views.WordWrap("This is a refresh-only plan, so tenet will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the tenet state without changing any remote objects.", r.opts.Width-1))
	} else {
		p.WriteString(views.WordWrap("Unless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.", r.opts.Width-1))
	}
	p.WriteString("\n")
	return true, nil
}

func (r *planRenderer) valueChangeOf(rc *planjson.ResourceChange) valueChange {
	ch := rc.Change
	return valueChange{
		before:          ch.Before,
		after:           ch.After,
		unknown:         ch.AfterUnknown,
		beforeSensitive: ch.BeforeSensitive,
		afterSensitive:  ch.AfterSensitive,
		replace:         newPathMatcher(ch.ReplacePaths),
		reveal:          r.opts.ShowSensitive,
	}
}

func (r *planRenderer) renderResource(rc *planjson.ResourceChange, act action.Action, drift bool) {
	node := diffBlock(r.valueChangeOf(rc), r.schemaFor(rc))
	r.writeResource(rc, act, node, drift)
}

func (r *planRenderer) writeResource(rc *planjson.ResourceChange, act action.Action, node *diffNode, drift bool) {
	p := r.p
	r.writeResourceComment(rc, act, drift)
	sym := p.symbolField(act)
	// A forgotten object's body is drawn without symbol columns.
	p.hideSymbols = act == action.Forget
	p.noNullSuffix = act == action.Forget
	p.showUnchanged = rc.Importing()
	if p.color {
		p.WriteString(views.ANSIReset) // the heading's closing reset, as OpenTofu
	}
	p.WriteString(sym[:len(sym)-1])
	p.WriteString(" ")
	if rc.Mode == "data" {
		p.WriteString("data ")
	} else {
		p.WriteString("resource ")
	}
	p.scratch = strconv.AppendQuote(p.scratch[:0], rc.Type)
	p.Write(p.scratch)
	p.WriteString(" ")
	p.scratch = strconv.AppendQuote(p.scratch[:0], rc.Name)
	p.Write(p.scratch)
	p.WriteString(" ")
	node.r.writeValue(p, node, 0)
	p.WriteString("\n")
	p.hideSymbols, p.noNullSuffix, p.showUnchanged = false, false, false
}

// writeBold writes the concatenation of parts in bold, as p.bold would.
func (p *printer) writeBold(parts ...string) {
	n := 0
	for _, s := range parts {
		n += len(s)
	}
	if n == 0 {
		return
	}
	if p.color {
		p.WriteString(views.ANSIBold)
	}
	for _, s := range parts {
		p.WriteString(s)
	}
	if p.color {
		p.WriteString(views.ANSIReset)
	}
}

// writeResourceComment writes the "# addr will be …" heading with its
// notes.
func (r *planRenderer) writeResourceComment(rc *planjson.ResourceChange, act action.Action, drift bool) {
	p := r.p
	addr := rc.Address
	if rc.Deposed != "" {
		addr += " (deposed object " + rc.Deposed + ")"
	}
	// phrase is a colour template (views.Colorize) without the closing
	// reset, which OpenTofu writes at the start of the resource's first
	// line (writeResource).
	head := func(phrase string) {
		p.writeBold("  # ", addr)
		p.WriteString(" ")
		p.WriteString(strings.TrimSuffix(p.colorize(phrase), views.ANSIReset))
		p.WriteString("\n")
	}
	note := func(text string) {
		p.WriteString("  # ")
		p.WriteString(text)
		p.WriteString("\n")
	}
	// A note about a move or an import starts with a reset in OpenTofu's
	// colour output.
	resetNote := func(text string) {
		if p.color {
			text = views.ANSIReset + text
		}
		note(text)
	}
	printedMoved, printedImported := false, false
	switch act {
	case action.Create:
		head("will be created")
	case action.Read:
		head("will be read during apply")
		switch rc.ActionReason {
		case "read_because_config_unknown":
			note("(config refers to values not yet known)")
		case "read_because_dependency_pending":
			note("(depends on a resource or a module with changes pending)")
		case "read_because_check_nested":
			note("(config will be reloaded to verify a check block)")
		}
	case action.Update:
		if drift {
			head("has changed")
		} else {
			head("will be updated in-place")
		}
	case action.DeleteThenCreate, action.CreateThenDelete:
		switch rc.ActionReason {
		case "replace_because_tainted":
			head("is tainted, so it must be [bold][red]replaced[reset]")
		case "replace_by_request":
			head("will be [bold][red]replaced[reset], as requested")
		case "replace_by_triggers":
			head("will be [bold][red]replaced[reset] due to changes in replace_triggered_by")
		default:
			head("must be [bold][red]replaced[reset]")
		}
	case action.Delete:
		if drift {
			head("has been deleted")
			break
		}
		head("will be [bold][red]destroyed[reset]")
		if reason := deleteReasonNote(rc); reason != "" {
			note(reason)
		}
		if rc.Deposed != "" {
			note("(left over from a partially-failed replacement of this instance)")
		}
	case action.Forget:
		head("will be removed from the tenet state [bold][red]but will not be destroyed[reset]")
	case action.NoOp:
		if rc.Moved() {
			p.writeBold("  # ", rc.PreviousAddress)
			p.WriteString(" has moved to ")
			p.writeBold(addr)
			p.WriteString("\n")
			printedMoved = true
		}
		if rc.Importing() {
			if printedMoved {
				resetNote("(will be imported)")
			} else {
				head("will be imported")
				if rc.Change.GeneratedConfig != "" {
					// OpenTofu's reset comes after the "#" here.
					p.WriteString("  #")
					if p.color {
						p.WriteString(views.ANSIReset)
					}
					p.WriteString(" (config will be generated)\n")
				}
			}
			printedImported = true
		}
	}
	if rc.Moved() && !printedMoved {
		resetNote("(moved from " + rc.PreviousAddress + ")")
	}
	if rc.Importing() && !printedImported {
		resetNote("(imported from " + strconv.Quote(rc.Change.Importing.ID) + ")")
		if act == action.Delete || act.IsReplace() {
			resetNote(p.paint(views.ANSIYellow, "Warning: this will destroy the imported resource"))
		}
	}
}

func deleteReasonNote(rc *planjson.ResourceChange) string {
	switch rc.ActionReason {
	case "delete_because_no_resource_config":
		res := rc.Type + "." + rc.Name
		if rc.Mode == "data" {
			res = "data." + res
		}
		return "(because " + res + " is not in configuration)"
	case "delete_because_no_move_target":
		return "(because " + rc.PreviousAddress + " was moved to " + rc.Address + ", which is not in configuration)"
	case "delete_because_no_module":
		return "(because " + rc.ModuleAddress + " is not in configuration)"
	case "delete_because_wrong_repetition":
		switch rc.Index.(type) {
		case nil:
			return "(because resource uses count or for_each)"
		case json.Number, float64:
			return "(because resource does not use count)"
		default:
			return "(because resource does not use for_each)"
		}
	case "delete_because_count_index":
		return "(because index " + formatKey(rc.Index) + " is out of range for count)"
	case "delete_because_each_key":
		return "(because key " + formatKey(rc.Index) + " is not in for_each map)"
	}
	return ""
}

// formatKey renders an instance key as in an address: [0] or ["k"].
func formatKey(k any) string {
	switch k := k.(type) {
	case nil:
		return ""
	case string:
		return "[" + strconv.Quote(k) + "]"
	}
	return "[" + formatPrimitive(k) + "]"
}

type outputChange struct {
	name    string
	key     string
	node    *diffNode
	display bool
}

func (r *planRenderer) outputChanges() ([]outputChange, error) {
	names := make([]string, 0, len(r.doc.OutputChanges))
	for name := range r.doc.OutputChanges {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []outputChange
	anyShown := false
	for _, name := range names {
		ch := r.doc.OutputChanges[name]
		act, err := action.FromJSONActions(ch.Actions)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		vc := valueChange{before: ch.Before, after: ch.After, unknown: ch.AfterUnknown,
			beforeSensitive: ch.BeforeSensitive, afterSensitive: ch.AfterSensitive, reveal: r.opts.ShowSensitive}
		node := diffAttribute(vc, ctyDynamic)
		if act != action.NoOp && node.act == action.NoOp {
			node.act = act
		}
		oc := outputChange{name: name, key: attributeKey(name), node: node, display: act != action.NoOp}
		anyShown = anyShown || oc.display
		out = append(out, oc)
	}
	if !anyShown {
		return nil, nil
	}
	return out, nil
}

func (r *planRenderer) renderOutputs(outputs []outputChange) {
	width := 0
	for _, o := range outputs {
		width = max(width, len(o.key))
	}
	for _, o := range outputs {
		if !o.display {
			continue
		}
		writeNamed(r.p, 0, namedNode{key: o.key, node: o.node}, width)
	}
}

// rule is the horizontal rule between the drift and the rest of a plan.
func (r *planRenderer) rule() string { return ruleLine(r.opts.Width, r.p.color) }

// ruleLine is a horizontal rule one column short of width, after a blank
// line: dark grey with colour, as OpenTofu draws it (the colour starts
// before the line break).
func ruleLine(width int, color bool) string {
	rule := strings.Repeat("─", width-1)
	if color {
		return views.ANSIDarkGray + "\n" + rule + views.ANSIReset + "\n"
	}
	return "\n" + rule + "\n"
}

// WritePlanNextStep writes what closes a plan with changes, as OpenTofu
// does unless TF_IN_AUTOMATION is set: a rule, where the configuration
// generated for imports was written (genPath, "" when none), and how to
// apply: the plan saved to outPath, or a note that it was not saved.
func WritePlanNextStep(w io.Writer, outPath, genPath string, color bool) error {
	var b strings.Builder
	b.WriteString(ruleLine(defaultWidth, color))
	if genPath != "" {
		b.WriteString("\n" + views.WordWrap(fmt.Sprintf("tenet has generated configuration and written it to %s. Please review the configuration and edit it as necessary before adding it to version control.", genPath), defaultWidth-1) + "\n")
	}
	if outPath == "" {
		b.WriteString("\n" + views.WordWrap(`Note: You didn't use the -out option to save this plan, so tenet can't guarantee to take exactly these actions if you run "tenet apply" now.`, defaultWidth-1) + "\n")
	} else {
		fmt.Fprintf(&b, "\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    tenet apply %q\n", outPath, outPath)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// moduleDepth is the number of module calls in a module instance address
// such as module.a["k"].module.b, not counting text inside instance keys.
func moduleDepth(addr string) int {
	depth, inKey := 0, false
	for i := 0; i < len(addr); i++ {
		switch c := addr[i]; {
		case c == '[':
			inKey = true
		case c == ']':
			inKey = false
		case !inKey && (i == 0 || addr[i-1] == '.') && strings.HasPrefix(addr[i:], "module."):
			depth++
		}
	}
	return depth
}
