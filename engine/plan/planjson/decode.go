package planjson

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/internal/jsontext"
)

// fieldSet notes which fields of one object were seen, so a repeated one
// (which encoding/json merges in ways not worth copying) sends the document
// to encoding/json.
type fieldSet uint32

// known marks field i as seen, failing on a repeat.
func (d *docDecoder) known(seen *fieldSet, i int) bool {
	if *seen&(1<<i) != 0 {
		d.fail()
		return false
	}
	*seen |= 1 << i
	return true
}

// unknown skips the value of a key that matches no field exactly; a key
// encoding/json could still match case-insensitively is left to it.
func (d *docDecoder) unknown(key string, fields []string) {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			d.fail()
			return
		}
	}
	for _, f := range fields {
		if strings.EqualFold(key, f) {
			d.fail()
			return
		}
	}
	d.skip()
}

// knownMember is one member of a JSON object the decoder knows: its exact
// name and how to read its value into a T.
type knownMember[T any] struct {
	name string
	read func(d *docDecoder, into *T)
}

// members is an object's known members, with their names apart for
// unknown's case-insensitive check.
type members[T any] struct {
	list  []knownMember[T]
	names []string
}

func newMembers[T any](list ...knownMember[T]) members[T] {
	ms := members[T]{list: list}
	for _, m := range list {
		ms.names = append(ms.names, m.name)
	}
	return ms
}

// decodeObject reads the object at d member by member into into: a known
// member once (a repeat fails), any other through unknown.
func decodeObject[T any](d *docDecoder, into *T, ms *members[T]) {
	var seen fieldSet
	next := 0 // members mostly come in the list's order: look there first
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			return
		}
		i := ms.index(key, next)
		if i < 0 {
			d.unknown(key, ms.names)
			continue
		}
		if d.known(&seen, i) {
			ms.list[i].read(d, into)
		}
		next = i + 1
	}
}

// index is the position of the member named key, looking from hint on
// and then wrapping round, or -1.
func (ms *members[T]) index(key string, hint int) int {
	n := len(ms.list)
	for k := range n {
		i := hint + k
		if i >= n {
			i -= n
		}
		if ms.list[i].name == key {
			return i
		}
	}
	return -1
}

var planDocumentMembers = newMembers(
	knownMember[Document]{"format_version", func(d *docDecoder, doc *Document) { doc.FormatVersion = d.text() }},
	knownMember[Document]{"resource_drift", func(d *docDecoder, doc *Document) { doc.ResourceDrift = d.resourceChanges("resource_drift") }},
	knownMember[Document]{"resource_changes", func(d *docDecoder, doc *Document) { doc.ResourceChanges = d.resourceChanges("resource_changes") }},
	knownMember[Document]{"output_changes", func(d *docDecoder, doc *Document) { doc.OutputChanges = d.outputChanges() }},
	knownMember[Document]{"relevant_attributes", func(d *docDecoder, doc *Document) { doc.RelevantAttributes = d.relevantAttributes() }},
	knownMember[Document]{"errored", func(d *docDecoder, doc *Document) { doc.Errored = d.boolean() }},
	knownMember[Document]{"planned_values", func(d *docDecoder, doc *Document) { doc.PlannedValues = d.plannedValues() }},
)

// decodeFast decodes the document src without reflection, on up to
// workers goroutines; ok is false when encoding/json must do it.
func decodeFast(src string, workers int) (doc *Document, ok bool) {
	d := &docDecoder{Scanner: jsontext.Scanner[string]{Src: src}, workers: workers}
	doc = &Document{}
	decodeObject(d, doc, &planDocumentMembers)
	if d.bad {
		return nil, false
	}
	return doc, true
}

func (d *docDecoder) plannedValues() *struct{ Outputs map[string]any } {
	if d.null() {
		return nil
	}
	pv := &struct{ Outputs map[string]any }{}
	seen := false
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		switch {
		case !strings.EqualFold(key, "outputs"):
			d.unknown(key, []string{"outputs"})
		case seen:
			d.fail()
		case d.null():
			seen = true
		case d.peek() == '{':
			seen = true
			pv.Outputs, _ = d.value().(map[string]any)
		default:
			d.fail()
		}
	}
	return pv
}

func (d *docDecoder) outputChanges() map[string]Change {
	if d.null() {
		return nil
	}
	out := map[string]Change{}
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		var ch Change
		d.change(&ch)
		out[key] = ch
	}
	return out
}

var relevantAttributeMembers = newMembers(
	knownMember[RelevantAttribute]{"resource", func(d *docDecoder, ra *RelevantAttribute) { ra.Resource = d.text() }},
	knownMember[RelevantAttribute]{"attribute", func(d *docDecoder, ra *RelevantAttribute) { ra.Attribute = d.anySlice() }},
)

func (d *docDecoder) relevantAttributes() []RelevantAttribute {
	if d.null() {
		return nil
	}
	out := []RelevantAttribute{}
	for first := d.openArray(); d.element(first); first = false {
		var ra RelevantAttribute
		if d.null() {
			out = append(out, ra)
			continue
		}
		decodeObject(d, &ra, &relevantAttributeMembers)
		out = append(out, ra)
	}
	return out
}

// resourceChanges reads resource_changes or resource_drift, spreading a
// long array over the cores.
func (d *docDecoder) resourceChanges(key string) []*ResourceChange {
	if d.null() {
		return nil
	}
	if d.peek() != '[' {
		d.fail()
		return nil
	}
	if out, ok := d.parallelResourceChanges(key); ok {
		return out
	}
	out := []*ResourceChange{}
	var slab changeSlab
	for first := d.openArray(); d.element(first); first = false {
		rc := slab.next()
		d.resourceChange(rc)
		out = append(out, rc)
	}
	return out
}

// changeSlab hands out resource changes allocated a batch at a time.
type changeSlab struct {
	free []ResourceChange
	// size of the next batch; grows to bound the number of batches.
	size int
}

func (s *changeSlab) next() *ResourceChange {
	if len(s.free) == 0 {
		s.size = min(max(8, s.size*2), 4096)
		s.free = make([]ResourceChange, s.size)
	}
	rc := &s.free[0]
	s.free = s.free[1:]
	return rc
}

var resourceChangeMembers = newMembers(
	knownMember[ResourceChange]{"address", func(d *docDecoder, rc *ResourceChange) { rc.Address = d.text() }},
	knownMember[ResourceChange]{"previous_address", func(d *docDecoder, rc *ResourceChange) { rc.PreviousAddress = d.text() }},
	knownMember[ResourceChange]{"module_address", func(d *docDecoder, rc *ResourceChange) { rc.ModuleAddress = d.text() }},
	knownMember[ResourceChange]{"mode", func(d *docDecoder, rc *ResourceChange) { rc.Mode = d.text() }},
	knownMember[ResourceChange]{"type", func(d *docDecoder, rc *ResourceChange) { rc.Type = d.text() }},
	knownMember[ResourceChange]{"name", func(d *docDecoder, rc *ResourceChange) { rc.Name = d.text() }},
	knownMember[ResourceChange]{"index", func(d *docDecoder, rc *ResourceChange) { rc.Index = d.value() }},
	knownMember[ResourceChange]{"deposed", func(d *docDecoder, rc *ResourceChange) { rc.Deposed = d.text() }},
	knownMember[ResourceChange]{"provider_name", func(d *docDecoder, rc *ResourceChange) { rc.ProviderName = d.text() }},
	knownMember[ResourceChange]{"change", func(d *docDecoder, rc *ResourceChange) { d.change(&rc.Change) }},
	knownMember[ResourceChange]{"action_reason", func(d *docDecoder, rc *ResourceChange) { rc.ActionReason = d.text() }},
)

// resourceChange reads one element of resource_changes into rc (zero).
func (d *docDecoder) resourceChange(rc *ResourceChange) {
	if d.null() {
		return
	}
	decodeObject(d, rc, &resourceChangeMembers)
}

var changeMembers = newMembers(
	knownMember[Change]{"actions", func(d *docDecoder, ch *Change) { ch.Actions = d.actions() }},
	knownMember[Change]{"before", func(d *docDecoder, ch *Change) { ch.Before = d.value() }},
	knownMember[Change]{"after", func(d *docDecoder, ch *Change) { ch.After = d.value() }},
	knownMember[Change]{"after_unknown", func(d *docDecoder, ch *Change) { ch.AfterUnknown = d.value() }},
	knownMember[Change]{"before_sensitive", func(d *docDecoder, ch *Change) { ch.BeforeSensitive = d.value() }},
	knownMember[Change]{"after_sensitive", func(d *docDecoder, ch *Change) { ch.AfterSensitive = d.value() }},
	knownMember[Change]{"replace_paths", func(d *docDecoder, ch *Change) { ch.ReplacePaths = d.replacePaths() }},
	knownMember[Change]{"importing", func(d *docDecoder, ch *Change) { ch.Importing = d.importing() }},
	knownMember[Change]{"generated_config", func(d *docDecoder, ch *Change) { ch.GeneratedConfig = d.text() }},
)

// change reads a change object into ch (zero).
func (d *docDecoder) change(ch *Change) {
	if d.null() {
		return
	}
	decodeObject(d, ch, &changeMembers)
}

// actions reads the actions list; the one-action lists the plan is made of
// share their backing arrays.
func (d *docDecoder) actions() []string {
	if d.null() {
		return nil
	}
	if !d.consume('[') {
		d.fail()
		return nil
	}
	if d.consume(']') {
		return []string{}
	}
	first := d.text()
	if d.consume(']') {
		for _, shared := range singleActions {
			if shared[0] == first {
				return shared
			}
		}
		return []string{first}
	}
	out := []string{first}
	for !d.bad && d.next(']') {
		out = append(out, d.text())
	}
	return out
}

// singleActions are the one-action lists, spelled by package action; copies,
// so that a document's reader cannot change what plans are written with.
var singleActions = func() (out [][]string) {
	for a := range action.Forget + 1 {
		if list := a.JSONActions(); len(list) == 1 {
			out = append(out, slices.Clone(list))
		}
	}
	return out
}()

func (d *docDecoder) replacePaths() [][]any {
	if d.null() {
		return nil
	}
	out := [][]any{}
	for first := d.openArray(); d.element(first); first = false {
		out = append(out, d.anySlice())
	}
	return out
}

func (d *docDecoder) importing() *struct {
	ID string `json:"id"`
} {
	if d.null() {
		return nil
	}
	imp := &struct {
		ID string `json:"id"`
	}{}
	var seen fieldSet
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		if key == "id" {
			if d.known(&seen, 0) {
				imp.ID = d.text()
			}
			continue
		}
		d.unknown(key, []string{"id"})
	}
	return imp
}
