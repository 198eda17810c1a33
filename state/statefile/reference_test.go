package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tenetplan/tenet/state"
)

// This is the writer as it was before Marshal encoded in parallel, kept
// as the reference that Marshal's output must match byte for byte: a
// sequential walk over the sorted state, with attributes compacted by
// encoding/json. The per-object encoding (field order, escaping) is the
// production code's, which TestCompactFileIsByteIdentical pins.

func marshalStd(f *File) ([]byte, error) {
	s := f.State
	if s == nil {
		s = state.NewState()
	}
	var buf bytes.Buffer
	buf.WriteString(`{"version":4,"terraform_version":`)
	writeString(&buf, f.TerraformVersion)
	buf.WriteString(`,"serial":`)
	buf.WriteString(strconv.FormatUint(f.Serial, 10))
	buf.WriteString(`,"lineage":`)
	writeString(&buf, f.Lineage)
	buf.WriteString(`,"outputs":`)
	if err := writeOutputs(&buf, s, writeRawStd); err != nil {
		return nil, err
	}
	buf.WriteString(`,"resources":[`)
	first := true
	for _, m := range s.SortedModules() {
		for _, r := range m.SortedResources() {
			if len(r.Instances) == 0 {
				continue
			}
			if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := writeResourceStd(&buf, r); err != nil {
				return nil, err
			}
		}
	}
	buf.WriteString(`],"check_results":`)
	if len(s.CheckResults) == 0 {
		buf.WriteString("null")
	} else if err := writeRawStd(&buf, s.CheckResults); err != nil {
		return nil, fmt.Errorf("encoding check results: %w", err)
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

func writeResourceStd(buf *bytes.Buffer, r *state.Resource) error {
	// A fresh provider cache: the reference encodes every address.
	if err := writeResourceStart(buf, r, &providerCache{}); err != nil {
		return err
	}
	first := true
	for _, k := range r.SortedKeys() {
		is := r.Instances[k]
		if is.Current != nil {
			if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := writeObject(buf, writeRawStd, k, state.NotDeposed, is.Current); err != nil {
				return fmt.Errorf("resource instance %s: %w", r.Addr.Instance(k), err)
			}
		}
		for _, dk := range is.SortedDeposedKeys() {
			if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := writeObject(buf, writeRawStd, k, dk, is.Deposed[dk]); err != nil {
				return fmt.Errorf("resource instance %s deposed object %s: %w", r.Addr.Instance(k), dk, err)
			}
		}
	}
	buf.WriteString("]}")
	return nil
}

// writeRawStd compacts and HTML-escapes raw through encoding/json alone,
// the reference for writeRaw's shortcut for input that is compact already.
func writeRawStd(buf *bytes.Buffer, raw []byte) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return err
	}
	json.HTMLEscape(buf, compact.Bytes())
	return nil
}
