package statejson

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/tenetplan/tenet/internal/jsontext"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// FormatVersion is the format_version of the state JSON view.
const FormatVersion = "1.0"

// TypeLookup returns the object type that a resource type's schema
// implies, or false if the schema is not known.
type TypeLookup func(provider addrs.Provider, mode addrs.ResourceMode, resourceType string) (cty.Type, bool)

// Marshal renders the whole document:
// {"format_version","terraform_version","values":{...}}. A nil state gives
// just {"format_version":"1.0"}, as `show -json` prints with no state.
// It writes by hand, with jsontext's strings; in statejson_test.go,
// BenchmarkMarshal100k times it, attribute decoding included, and
// BenchmarkMarshalStd100k encoding/json writing the same document from
// decoded JSON, values already converted.
func Marshal(s *state.State, terraformVersion string, types TypeLookup) (json.RawMessage, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"format_version":"` + FormatVersion + `"`)
	if s == nil {
		buf.WriteByte('}')
		return buf.Bytes(), nil
	}
	buf.WriteString(`,"terraform_version":`)
	writeString(&buf, terraformVersion)
	buf.WriteString(`,"values":`)
	if err := writeValues(&buf, s, types); err != nil {
		return nil, err
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Values renders only the inner "values" object:
// {"outputs":{...},"root_module":{...}} (outputs omitted when none).
func Values(s *state.State, types TypeLookup) (json.RawMessage, error) {
	var buf bytes.Buffer
	if s == nil {
		s = state.NewState()
	}
	if err := writeValues(&buf, s, types); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeValues(buf *bytes.Buffer, s *state.State, types TypeLookup) error {
	buf.WriteByte('{')
	if len(s.Outputs) > 0 {
		buf.WriteString(`"outputs":`)
		if err := writeOutputs(buf, s.Outputs); err != nil {
			return err
		}
		buf.WriteByte(',')
	}
	buf.WriteString(`"root_module":`)
	if err := writeModuleTree(buf, s, types); err != nil {
		return err
	}
	buf.WriteByte('}')
	return nil
}

func writeOutputs(buf *bytes.Buffer, outputs map[string]*state.OutputValue) error {
	buf.WriteByte('{')
	for i, n := range slices.Sorted(maps.Keys(outputs)) {
		o := outputs[n]
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, n)
		buf.WriteString(`:{"sensitive":`)
		buf.WriteString(strconv.FormatBool(o.Sensitive))
		if o.Deprecated != "" {
			buf.WriteString(`,"deprecated":`)
			writeString(buf, o.Deprecated)
		}
		ty := o.Value.Type()
		v, err := ctyjson.Marshal(o.Value, ty)
		if err != nil {
			return fmt.Errorf("output %s: %w", n, err)
		}
		t, err := ctyjson.MarshalType(ty)
		if err != nil {
			return fmt.Errorf("output %s: %w", n, err)
		}
		buf.WriteString(`,"value":`)
		buf.Write(v)
		buf.WriteString(`,"type":`)
		buf.Write(t)
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	return nil
}

// moduleNode is one module instance in the output tree; ancestors of
// modules with resources appear even when they have none themselves.
type moduleNode struct {
	addr     string
	module   *state.Module
	children []*moduleNode
}

func writeModuleTree(buf *bytes.Buffer, s *state.State, types TypeLookup) error {
	nodes := map[string]*moduleNode{"": {}}
	var ensure func(addrs.ModuleInstance) *moduleNode
	ensure = func(mi addrs.ModuleInstance) *moduleNode {
		k := mi.String()
		if n := nodes[k]; n != nil {
			return n
		}
		n := &moduleNode{addr: k}
		nodes[k] = n
		parent := ensure(mi.Parent())
		parent.children = append(parent.children, n)
		return n
	}
	for _, m := range s.Modules {
		if len(m.Resources) == 0 {
			continue
		}
		ensure(m.Addr).module = m
	}
	return writeModule(buf, nodes[""], types)
}

func writeModule(buf *bytes.Buffer, n *moduleNode, types TypeLookup) error {
	buf.WriteByte('{')
	comma := false
	if n.module != nil && len(n.module.Resources) > 0 {
		buf.WriteString(`"resources":`)
		if err := writeResources(buf, n.module, types); err != nil {
			return err
		}
		comma = true
	}
	if n.addr != "" {
		if comma {
			buf.WriteByte(',')
		}
		buf.WriteString(`"address":`)
		writeString(buf, n.addr)
		comma = true
	}
	if len(n.children) > 0 {
		if comma {
			buf.WriteByte(',')
		}
		slices.SortFunc(n.children, func(a, b *moduleNode) int { return cmp.Compare(a.addr, b.addr) })
		buf.WriteString(`"child_modules":[`)
		for i, c := range n.children {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeModule(buf, c, types); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	buf.WriteByte('}')
	return nil
}

type entry struct {
	address  string
	addr     addrs.AbsResourceInstance
	resource *state.Resource
	deposed  state.DeposedKey
	obj      *state.ObjectSrc
}

func writeResources(buf *bytes.Buffer, m *state.Module, types TypeLookup) error {
	var entries []entry
	for _, r := range m.Resources {
		for k, is := range r.Instances {
			addr := r.Addr.Instance(k)
			a := addr.String()
			if is.Current != nil {
				entries = append(entries, entry{a, addr, r, state.NotDeposed, is.Current})
			}
			for dk, o := range is.Deposed {
				entries = append(entries, entry{a, addr, r, dk, o})
			}
		}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if c := cmp.Compare(a.address, b.address); c != 0 {
			return c
		}
		return cmp.Compare(a.deposed, b.deposed)
	})
	buf.WriteByte('[')
	for i, e := range entries {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeResource(buf, e, types); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

func writeResource(buf *bytes.Buffer, e entry, types TypeLookup) error {
	res := e.addr.Resource.Resource
	buf.WriteString(`{"address":`)
	writeString(buf, e.address)
	buf.WriteString(`,"mode":`)
	writeString(buf, res.Mode.String())
	buf.WriteString(`,"type":`)
	writeString(buf, res.Type)
	buf.WriteString(`,"name":`)
	writeString(buf, res.Name)
	switch k := e.addr.Resource.Key.(type) {
	case addrs.IntKey:
		buf.WriteString(`,"index":` + strconv.Itoa(int(k)))
	case addrs.StringKey:
		buf.WriteString(`,"index":`)
		writeString(buf, string(k))
	}
	buf.WriteString(`,"provider_name":`)
	writeString(buf, e.resource.ProviderConfig.Provider.String())
	buf.WriteString(`,"schema_version":`)
	buf.WriteString(strconv.FormatUint(e.obj.SchemaVersion, 10))

	var ty cty.Type
	typed := false
	if types != nil {
		ty, typed = types(e.resource.ProviderConfig.Provider, res.Mode, res.Type)
	}
	sens := newPathSet(e.obj.SensitivePaths)
	if err := writeObjectValues(buf, e.obj.AttrsJSON, ty, typed, sens); err != nil {
		return fmt.Errorf("%s: %w", e.address, err)
	}

	if len(e.obj.Dependencies) > 0 {
		deps := make([]string, len(e.obj.Dependencies))
		for i, d := range e.obj.Dependencies {
			deps[i] = d.String()
		}
		slices.Sort(deps)
		buf.WriteString(`,"depends_on":`)
		buf.Write(jsontext.AppendQuoteArray(buf.AvailableBuffer(), deps))
	}
	if e.obj.Status == state.ObjectTainted {
		buf.WriteString(`,"tainted":true`)
	}
	if e.deposed != state.NotDeposed {
		buf.WriteString(`,"deposed_key":`)
		writeString(buf, string(e.deposed))
	}
	buf.WriteByte('}')
	return nil
}

// writeObjectValues writes `,"values":…,"sensitive_values":…`.
func writeObjectValues(buf *bytes.Buffer, attrs []byte, ty cty.Type, typed bool, sens pathSet) error {
	if len(attrs) == 0 {
		buf.WriteString(`,"values":{},"sensitive_values":{}`)
		return nil
	}
	if typed {
		v, err := state.UnmarshalAttrs(attrs, ty)
		if err != nil {
			return fmt.Errorf("stored attributes do not match the schema: %w", err)
		}
		out, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			return err
		}
		buf.WriteString(`,"values":`)
		buf.Write(out)
		buf.WriteString(`,"sensitive_values":`)
		var path []byte
		sensitiveCty(buf, v, path, sens)
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(attrs))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("invalid stored attributes: %w", err)
	}
	buf.WriteString(`,"values":`)
	buf.Write(attrs)
	buf.WriteString(`,"sensitive_values":`)
	var path []byte
	sensitiveJSON(buf, raw, path, sens)
	return nil
}

// writeString writes s as encoding/json does (HTML-safe).
func writeString(buf *bytes.Buffer, s string) {
	buf.Write(jsontext.AppendQuote(buf.AvailableBuffer(), s))
}
