package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tenetplan/tenet/internal/jsontext"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// Write encodes f as compact version-4 JSON followed by a newline.
func Write(f *File, w io.Writer) error {
	b, err := Marshal(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal is Write into a new byte slice. On large states the resource
// instances are encoded in parallel chunks and joined in order, so the
// output is the same as encoding them one after another.
func Marshal(f *File) ([]byte, error) {
	items, size := planResources(stateOf(f.State))
	var buf bytes.Buffer
	buf.Grow(256 + size)
	writeHeader(&buf, f)
	if err := writeBody(&buf, stateOf(f.State), items, size); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MarshalHeader and MarshalState split Marshal's output in two: the
// file's metadata, and the state. Marshal(f) is MarshalHeader(f) followed
// by MarshalState(f.State). state/local keeps the state part of the
// snapshot it last wrote to tell whether a new state differs from it.
func MarshalHeader(f *File) []byte {
	var buf bytes.Buffer
	writeHeader(&buf, f)
	return buf.Bytes()
}

// MarshalState is the part of Marshal's output after MarshalHeader.
func MarshalState(s *state.State) ([]byte, error) {
	s = stateOf(s)
	items, size := planResources(s)
	var buf bytes.Buffer
	buf.Grow(128 + size)
	if err := writeBody(&buf, s, items, size); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func stateOf(s *state.State) *state.State {
	if s == nil {
		return state.NewState()
	}
	return s
}

func writeHeader(buf *bytes.Buffer, f *File) {
	buf.WriteString(`{"version":4,"terraform_version":`)
	writeString(buf, f.TerraformVersion)
	buf.WriteString(`,"serial":`)
	buf.WriteString(strconv.FormatUint(f.Serial, 10))
	buf.WriteString(`,"lineage":`)
	writeString(buf, f.Lineage)
	buf.WriteByte(',')
}

func writeBody(buf *bytes.Buffer, s *state.State, items []writeItem, size int) error {
	buf.WriteString(`"outputs":`)
	if err := writeOutputs(buf, s, writeRaw); err != nil {
		return err
	}
	buf.WriteString(`,"resources":[`)
	if err := writeItems(buf, items, size); err != nil {
		return err
	}
	buf.WriteString(`],"check_results":`)
	if len(s.CheckResults) == 0 {
		buf.WriteString("null")
	} else if err := writeRaw(buf, s.CheckResults); err != nil {
		return fmt.Errorf("encoding check results: %w", err)
	}
	buf.WriteString("}\n")
	return nil
}

type itemKind uint8

const (
	itemResourceStart itemKind = iota // `{...,"instances":[`
	itemObject                        // one instances element
	itemResourceEnd                   // `]}`
)

// writeItem is one piece of the resources array, in output order, so the
// array can be cut into chunks anywhere and encoded in parallel.
type writeItem struct {
	kind    itemKind
	comma   bool // a comma precedes it
	res     *state.Resource
	key     addrs.InstanceKey
	deposed state.DeposedKey
	obj     *state.ObjectSrc
}

// planResources lists the resources array's items in state-file order and
// estimates the encoded size.
func planResources(s *state.State) ([]writeItem, int) {
	resources, objects := 0, 0
	for _, m := range s.Modules {
		resources += len(m.Resources)
		for _, r := range m.Resources {
			objects += len(r.Instances)
		}
	}
	items := make([]writeItem, 0, 2*resources+objects)
	size := 0
	firstRes := true
	var scratch []keyedInstance
	for _, m := range s.SortedModules() {
		for _, r := range sortedResources(m) {
			if len(r.Instances) == 0 {
				continue
			}
			items = append(items, writeItem{kind: itemResourceStart, comma: !firstRes, res: r})
			firstRes = false
			size += 200
			firstObj := true
			scratch = sortedInstances(r, scratch[:0])
			for _, ki := range scratch {
				k, is := ki.key, ki.instance
				if is.Current != nil {
					items = append(items, writeItem{kind: itemObject, comma: !firstObj, res: r, key: k, obj: is.Current})
					firstObj = false
					size += 128 + len(is.Current.AttrsJSON) + len(is.Current.Private)*4/3
				}
				if len(is.Deposed) == 0 {
					continue
				}
				for _, dk := range is.SortedDeposedKeys() {
					obj := is.Deposed[dk]
					items = append(items, writeItem{kind: itemObject, comma: !firstObj, res: r, key: k, deposed: dk, obj: obj})
					firstObj = false
					size += 128 + len(obj.AttrsJSON) + len(obj.Private)*4/3
				}
			}
			items = append(items, writeItem{kind: itemResourceEnd, res: r})
		}
	}
	return items, size
}

// sortedResources is Module.SortedResources (state.CompareResource order)
// with each resource's mode name computed once rather than per
// comparison, which showed with 100k resources.
func sortedResources(m *state.Module) []*state.Resource {
	type keyed struct {
		mode string
		r    *state.Resource
	}
	keys := make([]keyed, 0, len(m.Resources))
	for _, r := range m.Resources {
		keys = append(keys, keyed{r.Addr.Resource.Mode.String(), r})
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if c := strings.Compare(a.mode, b.mode); c != 0 {
			return c
		}
		if c := strings.Compare(a.r.Addr.Resource.Type, b.r.Addr.Resource.Type); c != 0 {
			return c
		}
		return strings.Compare(a.r.Addr.Resource.Name, b.r.Addr.Resource.Name)
	})
	out := make([]*state.Resource, len(keys))
	for i, k := range keys {
		out[i] = k.r
	}
	return out
}

type keyedInstance struct {
	key      addrs.InstanceKey
	instance *state.ResourceInstance
}

// sortedInstances appends the resource's instances to out in
// Resource.SortedKeys order, with a shortcut for count's keys 0..n-1,
// which need no sorting.
func sortedInstances(r *state.Resource, out []keyedInstance) []keyedInstance {
	out = slices.Grow(out, len(r.Instances))[:len(r.Instances)]
	for k, is := range r.Instances {
		ik, ok := k.(addrs.IntKey)
		if !ok || ik < 0 || int(ik) >= len(out) {
			keys := r.SortedKeys()
			for i, k := range keys {
				out[i] = keyedInstance{k, r.Instances[k]}
			}
			return out
		}
		out[ik] = keyedInstance{k, is}
	}
	return out
}

// writeItems encodes items into buf, in parallel chunks when they are
// large enough. The error is the one a sequential encoding meets first.
func writeItems(buf *bytes.Buffer, items []writeItem, size int) error {
	n := chunkCount(len(items), size)
	if n == 1 {
		return encodeItems(buf, items)
	}
	chunks := make([]bytes.Buffer, n)
	errs := make([]error, n)
	runChunks(len(items), size, func(c, lo, hi int) bool {
		chunks[c].Grow(size / n * 9 / 8)
		errs[c] = encodeItems(&chunks[c], items[lo:hi])
		return errs[c] == nil
	})
	// Chunks are numbered in output order, and one that failed stops
	// only chunks after it, so the first error is the sequential one.
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i := range chunks {
		buf.Write(chunks[i].Bytes())
	}
	return nil
}

func encodeItems(buf *bytes.Buffer, items []writeItem) error {
	var providers providerCache
	for i := range items {
		it := &items[i]
		if it.comma {
			buf.WriteByte(',')
		}
		switch it.kind {
		case itemResourceStart:
			if err := writeResourceStart(buf, it.res, &providers); err != nil {
				return err
			}
		case itemResourceEnd:
			buf.WriteString("]}")
		case itemObject:
			if err := writeObject(buf, writeRaw, it.key, it.deposed, it.obj); err != nil {
				if it.deposed != state.NotDeposed {
					return fmt.Errorf("resource instance %s deposed object %s: %w", it.res.Addr.Instance(it.key), it.deposed, err)
				}
				return fmt.Errorf("resource instance %s: %w", it.res.Addr.Instance(it.key), err)
			}
		}
	}
	return nil
}

// rawWriter writes an already encoded JSON value into the file: writeRaw,
// or the reference's plain json.Compact in the tests.
type rawWriter func(buf *bytes.Buffer, raw []byte) error

func writeOutputs(buf *bytes.Buffer, s *state.State, writeRaw rawWriter) error {
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
		writeString(buf, name)
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
		if err := writeRaw(buf, val); err != nil {
			return err
		}
		buf.WriteString(`,"type":`)
		if err := writeRaw(buf, tyJSON); err != nil {
			return err
		}
		if o.Sensitive {
			buf.WriteString(`,"sensitive":true`)
		}
		if o.Deprecated != "" {
			buf.WriteString(`,"deprecated":`)
			writeString(buf, o.Deprecated)
		}
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	return nil
}

// providerCache remembers the encoding of the last provider address,
// which the next resources nearly always share.
type providerCache struct {
	last    addrs.AbsProviderConfig
	encoded []byte
}

func (c *providerCache) encode(p addrs.AbsProviderConfig) []byte {
	if c.encoded == nil || p.Provider != c.last.Provider || p.Alias != c.last.Alias || !slices.Equal(p.Module, c.last.Module) {
		var b bytes.Buffer
		writeString(&b, p.String())
		c.last, c.encoded = p, b.Bytes()
	}
	return c.encoded
}

func writeResourceStart(buf *bytes.Buffer, r *state.Resource, providers *providerCache) error {
	buf.WriteByte('{')
	if !r.Addr.Module.IsRoot() {
		buf.WriteString(`"module":`)
		writeString(buf, r.Addr.Module.String())
		buf.WriteByte(',')
	}
	buf.WriteString(`"mode":`)
	writeString(buf, r.Addr.Resource.Mode.String())
	buf.WriteString(`,"type":`)
	writeString(buf, r.Addr.Resource.Type)
	buf.WriteString(`,"name":`)
	writeString(buf, r.Addr.Resource.Name)
	buf.WriteString(`,"provider":`)
	if r.ProviderConfig.Provider.IsZero() {
		return fmt.Errorf("resource %s has no provider configuration", r.Addr)
	}
	buf.Write(providers.encode(r.ProviderConfig))
	buf.WriteString(`,"instances":[`)
	return nil
}

func writeObject(buf *bytes.Buffer, writeRaw rawWriter, key addrs.InstanceKey, deposed state.DeposedKey, obj *state.ObjectSrc) error {
	buf.WriteByte('{')
	switch k := key.(type) {
	case addrs.IntKey:
		buf.WriteString(`"index_key":`)
		buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(k), 10))
		buf.WriteByte(',')
	case addrs.StringKey:
		buf.WriteString(`"index_key":`)
		writeString(buf, string(k))
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
		writeString(buf, string(deposed))
		buf.WriteByte(',')
	}
	buf.WriteString(`"schema_version":`)
	buf.WriteString(strconv.FormatUint(obj.SchemaVersion, 10))
	if len(obj.AttrsJSON) > 0 {
		buf.WriteString(`,"attributes":`)
		if err := writeRaw(buf, obj.AttrsJSON); err != nil {
			return fmt.Errorf("invalid attributes JSON: %w", err)
		}
	}
	buf.WriteString(`,"sensitive_attributes":`)
	if err := writePaths(buf, writeRaw, obj.SensitivePaths); err != nil {
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
		buf.WriteString(`,"dependencies":`)
		buf.Write(jsontext.AppendQuoteArray(buf.AvailableBuffer(), deps))
	}
	if obj.CreateBeforeDestroy {
		buf.WriteString(`,"create_before_destroy":true`)
	}
	buf.WriteByte('}')
	return nil
}

// writePaths encodes attribute paths as lists of get_attr / index steps;
// index keys carry their type, as cty's dynamic JSON encoding does.
func writePaths(buf *bytes.Buffer, writeRaw rawWriter, paths []cty.Path) error {
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
				writeString(buf, st.Name)
			case cty.IndexStep:
				v, err := ctyjson.Marshal(st.Key, cty.DynamicPseudoType)
				if err != nil {
					return fmt.Errorf("sensitive path index %#v cannot be encoded: %w", st.Key, err)
				}
				buf.WriteString(`{"type":"index","value":`)
				if err := writeRaw(buf, v); err != nil {
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
func writeString(buf *bytes.Buffer, s string) {
	buf.Write(jsontext.AppendQuote(buf.AvailableBuffer(), s))
}

// writeRaw appends JSON compacted and HTML-escaped the way encoding/json
// writes a json.RawMessage, validating it on the way.
func writeRaw(buf *bytes.Buffer, raw []byte) error {
	// Attributes tenet wrote or read are compact already: checking that
	// is much cheaper than json.Compact's copy through its scanner.
	if jsontext.IsCompact(raw) && !needsHTMLEscape(raw) {
		buf.Write(raw)
		return nil
	}
	start := buf.Len()
	if err := json.Compact(buf, raw); err != nil {
		buf.Truncate(start)
		return err
	}
	written := buf.Bytes()[start:]
	if needsHTMLEscape(written) {
		var escaped bytes.Buffer
		json.HTMLEscape(&escaped, written)
		buf.Truncate(start)
		buf.Write(escaped.Bytes())
	}
	return nil
}

// needsHTMLEscape reports whether b holds <, >, & or U+2028/U+2029 (whose
// UTF-8 starts with 0xE2). bytes.IndexByte is vectorised, which matters
// at 100k objects; bytes.ContainsAny decodes runes when the set is not
// ASCII.
func needsHTMLEscape(b []byte) bool {
	if bytes.IndexByte(b, '<') >= 0 || bytes.IndexByte(b, '>') >= 0 || bytes.IndexByte(b, '&') >= 0 {
		return true
	}
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], 0xE2)
		if j < 0 {
			return false
		}
		i += j
		if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
			return true
		}
		i++
	}
	return false
}
