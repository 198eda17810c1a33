package planjson

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statejson"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// FormatVersion is the format_version of the JSON plan.
const FormatVersion = "1.2"

// Marshal encodes p as `show -json` does (format 1.2), with keys in
// OpenTofu's order, plus a top-level "tenet" object holding the rule
// provenance of each change and the policy results. The output is compact.
//
// Changes and Drift are written in the order the plan holds them (the
// engine sorts them by address, then deposed key); data-source deletes
// (destroy mode) are left out, as is NoOp drift outside refresh-only mode.
func Marshal(p *plan.Plan, types statejson.TypeLookup) ([]byte, error) {
	return marshalJSON(p, types, false)
}

// MarshalView encodes the part of the JSON plan the UI views read
// (format_version, resource_drift, resource_changes, output_changes,
// relevant_attributes, errored), in the same format as Marshal.
// Resource changes that neither act, move nor import are left out, and so
// are planned_values, prior_state, configuration and tenet's own object:
// a no-change plan of 100k instances should not encode them only for the
// renderer to skip them.
func MarshalView(p *plan.Plan) ([]byte, error) {
	return marshalJSON(p, nil, true)
}

// MarshalSections encodes only the top-level members of the
// Marshal document for which want returns true (by key:
// "format_version", "resource_changes", "prior_state", …), each exactly as
// Marshal writes it and in the same order. A policy check that reads
// only resource_changes then need not encode the state and the
// configuration. A nil want keeps everything.
func MarshalSections(p *plan.Plan, types statejson.TypeLookup, want func(key string) bool) ([]byte, error) {
	return MarshalFiltered(p, types, want, nil)
}

// MarshalFiltered is MarshalSections that also leaves out the
// members of each element of resource_changes that members says cannot be
// read (nil: none are left out); resource_drift is written whole. A policy check
// reading only the address, type and actions of each change then need not
// encode the values before and after.
func MarshalFiltered(p *plan.Plan, types statejson.TypeLookup, want func(key string) bool, members ChangeMembers) ([]byte, error) {
	if err := checkActions(p); err != nil {
		return nil, err
	}
	return marshalFullJSON(p, types, want, newChangeFields(members))
}

func marshalJSON(p *plan.Plan, types statejson.TypeLookup, forView bool) ([]byte, error) {
	if err := checkActions(p); err != nil {
		return nil, err
	}
	if forView {
		return marshalViewJSON(p), nil
	}
	return marshalFullJSON(p, types, nil, allChangeFields)
}

func checkActions(p *plan.Plan) error {
	for _, list := range [][]*plan.ResourceInstanceChange{p.Changes, p.Drift} {
		for _, c := range list {
			if !c.Action.Valid() {
				return fmt.Errorf("change of %s has invalid action %v", c.ChangeKey(), c.Action)
			}
		}
	}
	for _, oc := range p.OutputChanges {
		if !oc.Action.Valid() {
			return fmt.Errorf("change of output %q has invalid action %v", oc.Name, oc.Action)
		}
	}
	return nil
}

func marshalFullJSON(p *plan.Plan, types statejson.TypeLookup, want func(string) bool, fields *changeFields) ([]byte, error) {
	keep := func(key string) bool { return want == nil || want(key) }

	// The big sections that do not depend on each other are encoded side
	// by side when the plan is large; the document joins them in order.
	var plannedValues, priorState []byte
	var priorErr error
	hasPrior := keep("prior_state") && !stateEmpty(p.PriorState)
	var wg sync.WaitGroup
	encodePlanned := func() { plannedValues = appendPlannedValues(nil, p) }
	encodePrior := func() {
		if hasPrior {
			priorState, priorErr = statejson.Marshal(p.PriorState, releaseVersion(p.TerraformVersion), types)
		}
	}
	plannedAside := false
	if len(p.Changes) >= 2*jsonChunk && runtime.GOMAXPROCS(0) > 1 {
		if keep("planned_values") {
			plannedAside = true
			wg.Go(encodePlanned)
		}
		if keep("prior_state") {
			wg.Go(encodePrior)
		}
	} else {
		if keep("planned_values") {
			encodePlanned()
		}
		if keep("prior_state") {
			encodePrior()
		}
	}

	size := 4096
	for _, key := range []string{"planned_values", "resource_changes", "prior_state"} {
		if keep(key) {
			size += 768 * len(p.Changes)
		}
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	if keep("format_version") {
		b = appendKey(b, "format_version")
		b = appendString(b, FormatVersion)
	}
	if keep("terraform_version") {
		b = appendKey(b, "terraform_version")
		b = appendString(b, p.TerraformVersion)
	}

	if len(p.Variables) > 0 && keep("variables") {
		b = appendKey(b, "variables")
		b = append(b, '{')
		for _, name := range sortedKeys(p.Variables) {
			b = appendKey(b, name)
			b = append(b, '{')
			b = appendKey(b, "value")
			b = AppendValue(b, p.Variables[name])
			b = append(b, '}')
		}
		b = append(b, '}')
	}

	// While planned_values is encoded on another goroutine, the changes
	// are encoded into buffers of their own and put in place after it.
	var drift, changes []byte
	if plannedAside {
		if keep("resource_drift") {
			if d := jsonDrift(p); len(d) > 0 {
				drift = appendResourceChanges(nil, d, allChangeFields)
			}
		}
		if keep("resource_changes") {
			if c := jsonChanges(p.Changes); len(c) > 0 {
				changes = appendResourceChanges(nil, c, fields)
			}
		}
	}
	wg.Wait()

	if keep("planned_values") {
		b = appendKey(b, "planned_values")
		b = append(b, plannedValues...)
	}
	switch {
	case plannedAside:
		if drift != nil {
			b = appendKey(b, "resource_drift")
			b = append(b, drift...)
		}
		if changes != nil {
			b = appendKey(b, "resource_changes")
			b = append(b, changes...)
		}
	default:
		if d := jsonDrift(p); len(d) > 0 && keep("resource_drift") {
			b = appendKey(b, "resource_drift")
			b = appendResourceChanges(b, d, allChangeFields)
		}
		if c := jsonChanges(p.Changes); len(c) > 0 && keep("resource_changes") {
			b = appendKey(b, "resource_changes")
			b = appendResourceChanges(b, c, fields)
		}
	}
	if len(p.OutputChanges) > 0 && keep("output_changes") {
		b = appendKey(b, "output_changes")
		b = appendOutputChanges(b, p.OutputChanges)
	}
	if priorErr != nil {
		return nil, fmt.Errorf("prior state: %w", priorErr)
	}
	if hasPrior {
		b = appendKey(b, "prior_state")
		b = append(b, priorState...)
	}

	if keep("configuration") {
		b = appendKey(b, "configuration")
		if cfg := p.ConfigurationJSON(); len(cfg) == 0 {
			b = append(b, '{', '}')
		} else {
			b = appendRaw(b, cfg)
		}
	}

	if keep("relevant_attributes") {
		b = appendRelevantAttributes(b, p)
	}
	if keep("checks") && len(p.Checks) > 0 {
		b = appendKey(b, "checks")
		b = appendRaw(b, p.Checks)
	}

	if keep("timestamp") {
		b = appendKey(b, "timestamp")
		b = appendString(b, p.Timestamp.UTC().Format(time.RFC3339))
	}
	if keep("errored") {
		b = appendKey(b, "errored")
		b = appendBool(b, p.Errored)
	}

	if keep("tenet") {
		b = appendKey(b, "tenet")
		b = appendTenet(b, p)
	}
	return append(b, '}'), nil
}

func marshalViewJSON(p *plan.Plan) []byte {
	var shown []*plan.ResourceInstanceChange
	for _, c := range jsonChanges(p.Changes) {
		if c.Action != action.NoOp || c.Moved() || c.Importing != nil {
			shown = append(shown, c)
		}
	}
	b := make([]byte, 0, 1024+768*(len(shown)+len(p.Drift)))
	b = append(b, '{')
	b = appendKey(b, "format_version")
	b = appendString(b, FormatVersion)
	if drift := jsonDrift(p); len(drift) > 0 {
		b = appendKey(b, "resource_drift")
		b = appendResourceChanges(b, drift, allChangeFields)
	}
	if len(shown) > 0 {
		b = appendKey(b, "resource_changes")
		b = appendResourceChanges(b, shown, allChangeFields)
	}
	if len(p.OutputChanges) > 0 {
		b = appendKey(b, "output_changes")
		b = appendOutputChanges(b, p.OutputChanges)
	}
	b = appendRelevantAttributes(b, p)
	b = appendKey(b, "errored")
	b = appendBool(b, p.Errored)
	return append(b, '}')
}

func appendRelevantAttributes(b []byte, p *plan.Plan) []byte {
	if len(p.RelevantAttributes) == 0 {
		return b
	}
	b = appendKey(b, "relevant_attributes")
	b = append(b, '[')
	for _, ra := range p.RelevantAttributes {
		b = appendComma(b)
		b = append(b, '{')
		b = appendKey(b, "resource")
		b = appendString(b, ra.Resource)
		b = appendKey(b, "attribute")
		b = appendPath(b, ra.Attr)
		b = append(b, '}')
	}
	return append(b, ']')
}

// jsonChanges drops what the JSON plan does not show: deletes of data
// resources, which only clear them from state.
func jsonChanges(changes []*plan.ResourceInstanceChange) []*plan.ResourceInstanceChange {
	for i, c := range changes {
		if isHiddenChange(c) {
			out := slices.Clone(changes[:i])
			for _, c := range changes[i+1:] {
				if !isHiddenChange(c) {
					out = append(out, c)
				}
			}
			return out
		}
	}
	return changes
}

func isHiddenChange(c *plan.ResourceInstanceChange) bool {
	return c.Action == action.Delete && c.Addr.Resource.Resource.Mode == addrs.DataResourceMode
}

// jsonDrift is the drift worth showing: all of it in refresh-only mode
// (moves included), otherwise only objects that really changed.
func jsonDrift(p *plan.Plan) []*plan.ResourceInstanceChange {
	if p.Mode == plan.RefreshOnlyMode {
		return jsonChanges(p.Drift)
	}
	var out []*plan.ResourceInstanceChange
	for _, c := range p.Drift {
		if c.Action != action.NoOp && !isHiddenChange(c) {
			out = append(out, c)
		}
	}
	return out
}

// jsonChunk is how many changes one goroutine encodes at a time when a
// plan is large enough to spread the encoding over the cores.
const jsonChunk = 2048

func appendResourceChanges(b []byte, changes []*plan.ResourceInstanceChange, f *changeFields) []byte {
	b = append(b, '[')
	if len(changes) < 2*jsonChunk || runtime.GOMAXPROCS(0) < 2 {
		for _, c := range changes {
			b = appendComma(b)
			b = appendResourceChange(b, c, f)
		}
		return append(b, ']')
	}
	// Changes encode independently: chunks go to one goroutine per core,
	// and are joined in order.
	chunks := make([][]byte, (len(changes)+jsonChunk-1)/jsonChunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(chunks) {
					return
				}
				part := changes[i*jsonChunk : min(len(changes), (i+1)*jsonChunk)]
				buf := make([]byte, 0, 768*len(part))
				for _, c := range part {
					buf = appendComma(buf)
					buf = appendResourceChange(buf, c, f)
				}
				chunks[i] = buf
			}
		})
	}
	wg.Wait()
	for i, chunk := range chunks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, chunk...)
	}
	return append(b, ']')
}

func appendResourceChange(b []byte, c *plan.ResourceInstanceChange, f *changeFields) []byte {
	b = append(b, '{')
	if f.address {
		b = appendKey(b, "address")
		b = appendString(b, c.Addr.String())
	}
	if c.Moved() && f.previousAddress {
		b = appendKey(b, "previous_address")
		b = appendString(b, c.PrevRunAddr.String())
	}
	b = appendResourceIdentityFields(b, c.Addr, f)
	if !c.Provider.Provider.IsZero() && f.providerName {
		b = appendKey(b, "provider_name")
		b = appendString(b, c.Provider.Provider.String())
	}
	if c.DeposedKey != state.NotDeposed && f.deposed {
		b = appendKey(b, "deposed")
		b = appendString(b, string(c.DeposedKey))
	}

	if f.change {
		b = appendKey(b, "change")
		b = append(b, '{')
		if f.actions {
			b = appendKey(b, "actions")
			b = appendStrings(b, c.Action.JSONActions())
		}
		if f.before {
			b = appendChangeValueAttrs(b, "before", c.Before, f.beforeAttr)
		}
		afterKnown := c.After == cty.NilVal || c.After.IsWhollyKnown()
		if f.after {
			b = appendChangeValueAttrs(b, "after", c.After, f.afterAttr)
		}
		if f.afterUnknown {
			b = appendKey(b, "after_unknown")
			if afterKnown {
				b = append(b, '{', '}')
			} else {
				b = AppendUnknown(b, c.After)
			}
		}
		if f.beforeSensitive {
			b = appendKey(b, "before_sensitive")
			b = AppendSensitive(b, c.Before, c.BeforeSensitivePaths)
		}
		if f.afterSensitive {
			b = appendKey(b, "after_sensitive")
			b = AppendSensitive(b, c.After, c.AfterSensitivePaths)
		}
		if len(c.RequiredReplace) > 0 && f.replacePaths {
			b = appendKey(b, "replace_paths")
			b = append(b, '[')
			for _, path := range c.RequiredReplace {
				b = appendComma(b)
				b = appendPath(b, path)
			}
			b = append(b, ']')
		}
		if c.Importing != nil && f.importing {
			b = appendKey(b, "importing")
			b = append(b, '{')
			b = appendKey(b, "id")
			b = appendString(b, c.Importing.ID)
			b = append(b, '}')
			if c.Importing.GeneratedConfig != "" {
				b = appendKey(b, "generated_config")
				b = appendString(b, c.Importing.GeneratedConfig)
			}
		}
		b = append(b, '}')
	}

	if c.Reason != plan.ReasonNone && f.actionReason {
		b = appendKey(b, "action_reason")
		b = appendString(b, string(c.Reason))
	}
	return append(b, '}')
}

// appendChangeValue writes before/after: null when absent or null, the
// value with unknowns left out, and nothing at all when wholly unknown.
func appendChangeValue(b []byte, key string, v cty.Value) []byte {
	if v != cty.NilVal && !v.IsKnown() {
		return b
	}
	b = appendKey(b, key)
	return AppendValue(b, v)
}

// appendResourceIdentity writes module_address (when withModule), mode,
// type, name and index.
func appendResourceIdentity(b []byte, addr addrs.AbsResourceInstance, withModule bool) []byte {
	if withModule && !addr.Module.IsRoot() {
		b = appendKey(b, "module_address")
		b = appendString(b, addr.Module.String())
	}
	r := addr.Resource.Resource
	b = appendKey(b, "mode")
	b = appendString(b, r.Mode.String())
	b = appendKey(b, "type")
	b = appendString(b, r.Type)
	b = appendKey(b, "name")
	b = appendString(b, r.Name)
	if addr.Resource.Key != nil {
		b = appendKey(b, "index")
		b = appendInstanceKey(b, addr.Resource.Key)
	}
	return b
}

func appendInstanceKey(b []byte, k addrs.InstanceKey) []byte {
	switch k := k.(type) {
	case addrs.IntKey:
		return appendInt(b, int64(k))
	case addrs.StringKey:
		return appendString(b, string(k))
	}
	return append(b, "null"...)
}

func appendOutputChanges(b []byte, ocs []*plan.OutputChange) []byte {
	sorted := slices.Clone(ocs)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	b = append(b, '{')
	for _, oc := range sorted {
		b = appendKey(b, oc.Name)
		b = append(b, '{')
		b = appendKey(b, "actions")
		b = appendStrings(b, oc.Action.JSONActions())
		b = appendChangeValue(b, "before", oc.Before)
		b = appendChangeValue(b, "after", oc.After)
		b = appendKey(b, "after_unknown")
		if oc.After == cty.NilVal || oc.After.IsWhollyKnown() {
			b = append(b, "false"...)
		} else {
			b = AppendUnknown(b, oc.After)
		}
		// The plan knows only one sensitivity flag per output.
		b = appendKey(b, "before_sensitive")
		b = appendBool(b, oc.Sensitive)
		b = appendKey(b, "after_sensitive")
		b = appendBool(b, oc.Sensitive)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendPlannedValues writes the planned_values object: root outputs that
// are not being deleted, and the module tree of every current object that
// will exist (or be forgotten) after apply.
func appendPlannedValues(b []byte, p *plan.Plan) []byte {
	b = append(b, '{')
	var outs []*plan.OutputChange
	for _, oc := range p.OutputChanges {
		if oc.Action != action.Delete {
			outs = append(outs, oc)
		}
	}
	if len(outs) > 0 {
		sort.SliceStable(outs, func(i, j int) bool { return outs[i].Name < outs[j].Name })
		b = appendKey(b, "outputs")
		b = append(b, '{')
		for _, oc := range outs {
			b = appendKey(b, oc.Name)
			b = append(b, '{')
			b = appendKey(b, "sensitive")
			b = appendBool(b, oc.Sensitive)
			if oc.After != cty.NilVal && oc.After.IsWhollyKnown() {
				b = appendKey(b, "type")
				b = appendType(b, oc.After.Type())
				b = appendKey(b, "value")
				b = AppendValue(b, oc.After)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}

	tree := newModuleTree()
	for _, c := range p.Changes {
		if c.DeposedKey != state.NotDeposed || c.Action == action.Delete {
			continue
		}
		m := tree.module(c.Addr.Module)
		m.entries = append(m.entries, moduleEntry{address: c.Addr.String(), change: c})
	}
	b = appendKey(b, "root_module")
	b = tree.appendModule(b, tree.root)
	return append(b, '}')
}

func appendPlannedResource(b []byte, c *plan.ResourceInstanceChange) []byte {
	b = append(b, '{')
	b = appendKey(b, "address")
	b = appendString(b, c.Addr.String())
	b = appendResourceIdentity(b, c.Addr, false)
	b = appendKey(b, "provider_name")
	b = appendString(b, c.Provider.Provider.String())
	b = appendKey(b, "schema_version")
	b = appendUint(b, c.SchemaVersion)
	if c.After != cty.NilVal && c.After.IsKnown() && !c.After.IsNull() {
		mark := len(b)
		b = appendKey(b, "values")
		valStart := len(b)
		b = AppendValue(b, c.After)
		if string(b[valStart:]) == "{}" {
			b = b[:mark] // attribute maps with nothing in them are left out
		}
	}
	b = appendKey(b, "sensitive_values")
	b = AppendSensitive(b, c.After, c.AfterSensitivePaths)
	return append(b, '}')
}

func appendType(b []byte, ty cty.Type) []byte {
	raw, err := ctyjson.MarshalType(ty)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendTenet writes tenet's own top-level object: rule provenance per
// change key, and the policy results when a policy check ran.
func appendTenet(b []byte, p *plan.Plan) []byte {
	b = append(b, '{')
	b = appendKey(b, "provenance")
	b = append(b, '{')
	for _, key := range sortedKeys(p.Provenance) {
		b = appendKey(b, key)
		b = append(b, '[')
		for _, r := range p.Provenance[key] {
			b = appendComma(b)
			b = append(b, '{')
			b = appendKey(b, "id")
			b = appendString(b, r.RuleID)
			if r.File != "" {
				b = appendKey(b, "file")
				b = appendString(b, r.File)
			}
			if r.Line != 0 {
				b = appendKey(b, "line")
				b = appendInt(b, int64(r.Line))
			}
			if r.Title != "" {
				b = appendKey(b, "title")
				b = appendString(b, r.Title)
			}
			if r.Message != "" {
				b = appendKey(b, "message")
				b = appendString(b, r.Message)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	if len(p.Facts) > 0 {
		b = appendKey(b, "facts")
		b = append(b, '{')
		for _, key := range sortedKeys(p.Facts) {
			b = appendKey(b, key)
			b = appendFacts(b, p.Facts[key])
		}
		b = append(b, '}')
	}
	if len(p.PolicyResults) > 0 {
		b = appendKey(b, "policy")
		b = appendRaw(b, p.PolicyResults)
	}
	return append(b, '}')
}

// releaseVersion drops a pre-release or build suffix ("1.10.6-dev" →
// "1.10.6"): the state view names the release, as OpenTofu's does.
func releaseVersion(v string) string {
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		return v[:i]
	}
	return v
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// moduleTree groups planned resources by module instance for the nested
// root_module/child_modules layout of planned_values. Ancestors of a module
// with entries appear even when empty.
type moduleTree struct {
	root    *treeModule
	modules map[string]*treeModule
}

type treeModule struct {
	address  string
	entries  []moduleEntry
	children []*treeModule
}

type moduleEntry struct {
	address string
	change  *plan.ResourceInstanceChange
}

func newModuleTree() *moduleTree {
	root := &treeModule{}
	return &moduleTree{root: root, modules: map[string]*treeModule{"": root}}
}

func (t *moduleTree) module(addr addrs.ModuleInstance) *treeModule {
	key := addr.String()
	if m, ok := t.modules[key]; ok {
		return m
	}
	m := &treeModule{address: key}
	t.modules[key] = m
	parent := t.module(addr.Parent())
	parent.children = append(parent.children, m)
	return m
}

// appendModule writes {"resources": [...], "address": ..., "child_modules": [...]}
// (the order OpenTofu uses), with resources and children sorted by
// address string.
func (t *moduleTree) appendModule(b []byte, m *treeModule) []byte {
	b = append(b, '{')
	if len(m.entries) > 0 {
		sort.SliceStable(m.entries, func(i, j int) bool {
			return m.entries[i].address < m.entries[j].address
		})
		b = appendKey(b, "resources")
		b = append(b, '[')
		for _, e := range m.entries {
			b = appendComma(b)
			b = appendPlannedResource(b, e.change)
		}
		b = append(b, ']')
	}
	if m.address != "" {
		b = appendKey(b, "address")
		b = appendString(b, m.address)
	}
	if len(m.children) > 0 {
		sort.Slice(m.children, func(i, j int) bool {
			return strings.Compare(m.children[i].address, m.children[j].address) < 0
		})
		b = appendKey(b, "child_modules")
		b = append(b, '[')
		for _, c := range m.children {
			b = appendComma(b)
			b = t.appendModule(b, c)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
