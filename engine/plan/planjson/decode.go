package planjson

import (
	"strings"
	"unicode/utf8"
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

var planDocumentFields = []string{"format_version", "resource_drift", "resource_changes", "output_changes", "relevant_attributes", "errored", "planned_values"}

// decodeFast decodes src (whose text str also holds) without
// reflection, on up to workers goroutines; ok is false when encoding/json
// must do it.
func decodeFast(src []byte, str string, workers int) (doc *Document, ok bool) {
	d := &docDecoder{src: src, str: str, workers: workers}
	doc = &Document{}
	var seen fieldSet
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		switch key {
		case "format_version":
			if d.known(&seen, 0) {
				doc.FormatVersion = d.text()
			}
		case "resource_drift":
			if d.known(&seen, 1) {
				doc.ResourceDrift = d.resourceChanges(key)
			}
		case "resource_changes":
			if d.known(&seen, 2) {
				doc.ResourceChanges = d.resourceChanges(key)
			}
		case "output_changes":
			if d.known(&seen, 3) {
				doc.OutputChanges = d.outputChanges()
			}
		case "relevant_attributes":
			if d.known(&seen, 4) {
				doc.RelevantAttributes = d.relevantAttributes()
			}
		case "errored":
			if d.known(&seen, 5) {
				doc.Errored = d.boolean()
			}
		case "planned_values":
			if d.known(&seen, 6) {
				doc.PlannedValues = d.plannedValues()
			}
		default:
			d.unknown(key, planDocumentFields)
		}
	}
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

var relevantAttributeFields = []string{"resource", "attribute"}

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
		var seen fieldSet
		for first := d.openObject(); ; first = false {
			key, ok := d.member(first)
			if !ok {
				break
			}
			switch key {
			case "resource":
				if d.known(&seen, 0) {
					ra.Resource = d.text()
				}
			case "attribute":
				if d.known(&seen, 1) {
					ra.Attribute = d.anySlice()
				}
			default:
				d.unknown(key, relevantAttributeFields)
			}
		}
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

var resourceChangeFields = []string{"address", "previous_address", "module_address", "mode", "type", "name", "index", "deposed", "provider_name", "change", "action_reason"}

// resourceChange reads one element of resource_changes into rc (zero).
func (d *docDecoder) resourceChange(rc *ResourceChange) {
	if d.null() {
		return
	}
	var seen fieldSet
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		switch key {
		case "address":
			if d.known(&seen, 0) {
				rc.Address = d.text()
			}
		case "previous_address":
			if d.known(&seen, 1) {
				rc.PreviousAddress = d.text()
			}
		case "module_address":
			if d.known(&seen, 2) {
				rc.ModuleAddress = d.text()
			}
		case "mode":
			if d.known(&seen, 3) {
				rc.Mode = d.text()
			}
		case "type":
			if d.known(&seen, 4) {
				rc.Type = d.text()
			}
		case "name":
			if d.known(&seen, 5) {
				rc.Name = d.text()
			}
		case "index":
			if d.known(&seen, 6) {
				rc.Index = d.value()
			}
		case "deposed":
			if d.known(&seen, 7) {
				rc.Deposed = d.text()
			}
		case "provider_name":
			if d.known(&seen, 8) {
				rc.ProviderName = d.text()
			}
		case "change":
			if d.known(&seen, 9) {
				d.change(&rc.Change)
			}
		case "action_reason":
			if d.known(&seen, 10) {
				rc.ActionReason = d.text()
			}
		default:
			d.unknown(key, resourceChangeFields)
		}
	}
}

var changeObjectFields = []string{"actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive", "replace_paths", "importing", "generated_config"}

// change reads a change object into ch (zero).
func (d *docDecoder) change(ch *Change) {
	if d.null() {
		return
	}
	var seen fieldSet
	for first := d.openObject(); ; first = false {
		key, ok := d.member(first)
		if !ok {
			break
		}
		switch key {
		case "actions":
			if d.known(&seen, 0) {
				ch.Actions = d.actions()
			}
		case "before":
			if d.known(&seen, 1) {
				ch.Before = d.value()
			}
		case "after":
			if d.known(&seen, 2) {
				ch.After = d.value()
			}
		case "after_unknown":
			if d.known(&seen, 3) {
				ch.AfterUnknown = d.value()
			}
		case "before_sensitive":
			if d.known(&seen, 4) {
				ch.BeforeSensitive = d.value()
			}
		case "after_sensitive":
			if d.known(&seen, 5) {
				ch.AfterSensitive = d.value()
			}
		case "replace_paths":
			if d.known(&seen, 6) {
				ch.ReplacePaths = d.replacePaths()
			}
		case "importing":
			if d.known(&seen, 7) {
				ch.Importing = d.importing()
			}
		case "generated_config":
			if d.known(&seen, 8) {
				ch.GeneratedConfig = d.text()
			}
		default:
			d.unknown(key, changeObjectFields)
		}
	}
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
	for !d.bad && d.consume(',') {
		out = append(out, d.text())
	}
	if !d.consume(']') {
		d.fail()
	}
	return out
}

var singleActions = [][]string{{"create"}, {"update"}, {"delete"}, {"no-op"}, {"read"}, {"forget"}}

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
