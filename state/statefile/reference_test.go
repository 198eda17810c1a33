package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// This is the writer as it was before Marshal encoded in parallel, kept
// as the reference that Marshal's output must match byte for byte.

func marshalStd(f *File) ([]byte, error) {
	s := f.State
	if s == nil {
		s = state.NewState()
	}
	var buf bytes.Buffer
	buf.WriteString(`{"version":4,"terraform_version":`)
	writeStringStd(&buf, f.TerraformVersion)
	buf.WriteString(`,"serial":`)
	buf.WriteString(strconv.FormatUint(f.Serial, 10))
	buf.WriteString(`,"lineage":`)
	writeStringStd(&buf, f.Lineage)
	buf.WriteString(`,"outputs":`)
	if err := writeOutputsStd(&buf, s); err != nil {
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

func writeOutputsStd(buf *bytes.Buffer, s *state.State) error {
	names := make([]string, 0, len(s.Outputs))
	for name := range s.Outputs {
		names = append(names, name)
	}
	slices.Sort(names)
	buf.WriteByte('{')
	for i, name := range names {
		o := s.Outputs[name]
		if i > 0 {
			buf.WriteByte(',')
		}
		writeStringStd(buf, name)
		ty := o.Value.Type()
		if !o.Value.IsWhollyKnown() {
			return fmt.Errorf("output %q has an unknown value, which cannot be saved in a state file", name)
		}
		val, err := ctyjson.Marshal(o.Value, ty)
		if err != nil {
			return fmt.Errorf("encoding output %q: %w", name, err)
		}
		tyJSON, err := ctyjson.MarshalType(ty)
		if err != nil {
			return fmt.Errorf("encoding the type of output %q: %w", name, err)
		}
		buf.WriteString(`:{"value":`)
		if err := writeRawStd(buf, val); err != nil {
			return err
		}
		buf.WriteString(`,"type":`)
		if err := writeRawStd(buf, tyJSON); err != nil {
			return err
		}
		if o.Sensitive {
			buf.WriteString(`,"sensitive":true`)
		}
		if o.Deprecated != "" {
			buf.WriteString(`,"deprecated":`)
			writeStringStd(buf, o.Deprecated)
		}
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	return nil
}

func writeResourceStd(buf *bytes.Buffer, r *state.Resource) error {
	buf.WriteByte('{')
	if !r.Addr.Module.IsRoot() {
		buf.WriteString(`"module":`)
		writeStringStd(buf, r.Addr.Module.String())
		buf.WriteByte(',')
	}
	buf.WriteString(`"mode":`)
	writeStringStd(buf, r.Addr.Resource.Mode.String())
	buf.WriteString(`,"type":`)
	writeStringStd(buf, r.Addr.Resource.Type)
	buf.WriteString(`,"name":`)
	writeStringStd(buf, r.Addr.Resource.Name)
	buf.WriteString(`,"provider":`)
	if r.ProviderConfig.Provider.IsZero() {
		return fmt.Errorf("resource %s has no provider configuration", r.Addr)
	}
	writeStringStd(buf, r.ProviderConfig.String())
	buf.WriteString(`,"instances":[`)
	first := true
	for _, k := range r.SortedKeys() {
		is := r.Instances[k]
		if is.Current != nil {
			if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := writeObjectStd(buf, k, state.NotDeposed, is.Current); err != nil {
				return fmt.Errorf("resource instance %s: %w", r.Addr.Instance(k), err)
			}
		}
		for _, dk := range is.SortedDeposedKeys() {
			if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := writeObjectStd(buf, k, dk, is.Deposed[dk]); err != nil {
				return fmt.Errorf("resource instance %s deposed object %s: %w", r.Addr.Instance(k), dk, err)
			}
		}
	}
	buf.WriteString("]}")
	return nil
}

func writeObjectStd(buf *bytes.Buffer, key addrs.InstanceKey, deposed state.DeposedKey, obj *state.ObjectSrc) error {
	buf.WriteByte('{')
	switch k := key.(type) {
	case addrs.IntKey:
		buf.WriteString(`"index_key":`)
		buf.WriteString(strconv.Itoa(int(k)))
		buf.WriteByte(',')
	case addrs.StringKey:
		buf.WriteString(`"index_key":`)
		writeStringStd(buf, string(k))
		buf.WriteByte(',')
	}
	switch obj.Status {
	case state.ObjectTainted:
		buf.WriteString(`"status":"tainted",`)
	case state.ObjectReady, 0:
	default:
		return fmt.Errorf("object status %q cannot be saved in a state file", rune(obj.Status))
	}
	if deposed != state.NotDeposed {
		buf.WriteString(`"deposed":`)
		writeStringStd(buf, string(deposed))
		buf.WriteByte(',')
	}
	buf.WriteString(`"schema_version":`)
	buf.WriteString(strconv.FormatUint(obj.SchemaVersion, 10))
	if len(obj.AttrsJSON) > 0 {
		buf.WriteString(`,"attributes":`)
		if err := writeRawStd(buf, obj.AttrsJSON); err != nil {
			return fmt.Errorf("invalid attributes JSON: %w", err)
		}
	}
	buf.WriteString(`,"sensitive_attributes":`)
	if err := writePathsStd(buf, obj.SensitivePaths); err != nil {
		return err
	}
	if len(obj.Private) > 0 {
		buf.WriteString(`,"private":"`)
		enc := base64.StdEncoding
		n := enc.EncodedLen(len(obj.Private))
		buf.Grow(n)
		start := buf.Len()
		buf.Write(make([]byte, n))
		enc.Encode(buf.Bytes()[start:], obj.Private)
		buf.WriteByte('"')
	}
	if len(obj.Dependencies) > 0 {
		deps := make([]string, len(obj.Dependencies))
		for i, d := range obj.Dependencies {
			deps[i] = d.String()
		}
		slices.Sort(deps)
		deps = slices.Compact(deps)
		buf.WriteString(`,"dependencies":[`)
		for i, d := range deps {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeStringStd(buf, d)
		}
		buf.WriteByte(']')
	}
	if obj.CreateBeforeDestroy {
		buf.WriteString(`,"create_before_destroy":true`)
	}
	buf.WriteByte('}')
	return nil
}

// writePaths encodes attribute paths as lists of get_attr / index steps;
// index keys carry their type, as cty's dynamic JSON encoding does.
func writePathsStd(buf *bytes.Buffer, paths []cty.Path) error {
	buf.WriteByte('[')
	for i, p := range paths {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('[')
		for j, step := range p {
			if j > 0 {
				buf.WriteByte(',')
			}
			switch st := step.(type) {
			case cty.GetAttrStep:
				buf.WriteString(`{"type":"get_attr","value":`)
				writeStringStd(buf, st.Name)
			case cty.IndexStep:
				v, err := ctyjson.Marshal(st.Key, cty.DynamicPseudoType)
				if err != nil {
					return fmt.Errorf("sensitive path index %#v cannot be encoded: %w", st.Key, err)
				}
				buf.WriteString(`{"type":"index","value":`)
				if err := writeRawStd(buf, v); err != nil {
					return err
				}
			default:
				return fmt.Errorf("unsupported sensitive path step %T", step)
			}
			buf.WriteByte('}')
		}
		buf.WriteByte(']')
	}
	buf.WriteByte(']')
	return nil
}

// writeString writes s as encoding/json would (HTML-safe escaping), which
// is what OpenTofu's files contain.
func writeStringStd(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			buf.Write(b)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}

// writeRaw appends JSON compacted and HTML-escaped the way encoding/json
// writes a json.RawMessage, validating it on the way.
func writeRawStd(buf *bytes.Buffer, raw []byte) error {
	start := buf.Len()
	if err := json.Compact(buf, raw); err != nil {
		buf.Truncate(start)
		return err
	}
	written := buf.Bytes()[start:]
	if needsHTMLEscapeStd(written) {
		var escaped bytes.Buffer
		json.HTMLEscape(&escaped, written)
		buf.Truncate(start)
		buf.Write(escaped.Bytes())
	}
	return nil
}

// needsHTMLEscape reports whether b holds <, >, & or U+2028/U+2029 (whose
// UTF-8 starts with 0xE2), byte by byte: bytes.ContainsAny decodes runes
// when the set is not ASCII, which showed at 100k objects.
func needsHTMLEscapeStd(b []byte) bool {
	for i, c := range b {
		switch c {
		case '<', '>', '&':
			return true
		case 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}
