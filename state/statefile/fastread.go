package statefile

import (
	"encoding/json"
	"strconv"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/jsontext"
	"github.com/tenetplan/tenet/state"
)

// parseFast decodes a version-4 state file of the shape tenet and
// OpenTofu write, without reflection and with the instances decoded in
// parallel on large files. ok is false for anything outside that shape —
// every malformed or invalid file, but also valid rarities such as
// duplicate keys, keys in other letter cases, legacy attributes_flat or a
// resource listed twice — and Parse then runs parseStd, whose result is
// the reference: whenever parseFast succeeds, parseStd gives the same
// File (see TestFastReadMatchesStd and FuzzRead).
func parseFast(src []byte) (f *File, ok bool) {
	s := newScanner(src)
	var top fastTop
	hasVersion := false
	i := s.object(s.Space(0), func(key []byte, i int) (uint16, int) {
		switch string(key) {
		case "version":
			// Only the literal 4 is accepted here; other versions and
			// spellings get their messages from parseStd.
			if i = s.Literal(i, "4"); i < 0 || i < len(src) && !isEndOfNumber(src[i]) {
				return 0, -1
			}
			hasVersion = true
			return 1, i
		case "terraform_version":
			return s.stringMember(&top.tfVersion, 2, i)
		case "serial":
			return s.uintMember(&top.serial, 4, i)
		case "lineage":
			return s.stringMember(&top.lineage, 8, i)
		case "outputs":
			return s.rawMember(&top.outputs, 16, i, 1)
		case "resources":
			return 32, s.resources(i, &top)
		case "check_results":
			return s.rawMember(&top.checks, 64, i, 1)
		}
		return 0, s.Value(i, 1)
	})
	if i < 0 || s.Space(i) != len(src) || !hasVersion {
		return nil, false
	}
	return top.build(src)
}

// isEndOfNumber reports whether c may follow a number token.
func isEndOfNumber(c byte) bool {
	return jsontext.IsSpace(c) || c == ',' || c == '}' || c == ']'
}

type fastTop struct {
	tfVersion, lineage string
	serial             uint64
	outputs, checks    []byte
	resources          []fastResource
	instances          []span
}

type fastResource struct {
	module, mode, typ, name, provider string
	first, count                      int // into fastTop.instances
}

type span struct{ start, end int }

// key reads an object key at b[i] and the colon after it, returning the
// index of the value. Keys that encoding/json could match to a field
// other than by plain equality (upper case, non-ASCII, escapes) fail.
func (s *scanner) key(i int) ([]byte, int) {
	b := s.Src
	if i >= len(b) || b[i] != '"' {
		return nil, -1
	}
	j := i + 1
	for j < len(b) {
		c := b[j]
		if c == '"' {
			break
		}
		if c < 0x20 || c >= 0x80 || c == '\\' || 'A' <= c && c <= 'Z' {
			return nil, -1
		}
		j++
	}
	if j >= len(b) {
		return nil, -1
	}
	k := s.Space(j + 1)
	if k >= len(b) || b[k] != ':' {
		return nil, -1
	}
	return b[i+1 : j], s.Space(k + 1)
}

// stringValue decodes a string or null (which leaves a string field
// empty, as encoding/json does).
func (s *scanner) stringValue(i int) (string, int) {
	if i >= len(s.Src) {
		return "", -1
	}
	switch s.Src[i] {
	case '"':
		v, end, _ := s.StringValue(i, nil)
		return v, end
	case 'n':
		return "", s.Literal(i, "null")
	}
	return "", -1
}

// uintValue decodes an unsigned integer or null as encoding/json decodes
// into a uint64: digits only, no fraction or exponent.
func (s *scanner) uintValue(i int) (uint64, int) {
	if s.IsNull(i) {
		return 0, i + 4
	}
	end := s.Number(i)
	if end < 0 {
		return 0, -1
	}
	n, err := strconv.ParseUint(string(s.Src[i:end]), 10, 64)
	if err != nil {
		return 0, -1
	}
	return n, end
}

// stringMember, uintMember and rawMember decode a member's value at
// Src[i] into *dst and return what an object's member func returns: the
// member's bit and the index after the value, or -1.
func (s *scanner) stringMember(dst *string, bit uint16, i int) (uint16, int) {
	*dst, i = s.stringValue(i)
	return bit, i
}

func (s *scanner) uintMember(dst *uint64, bit uint16, i int) (uint16, int) {
	*dst, i = s.uintValue(i)
	return bit, i
}

func (s *scanner) rawMember(dst *[]byte, bit uint16, i, depth int) (uint16, int) {
	*dst, i = s.rawValue(i, depth)
	return bit, i
}

// object reads the object at Src[i] and returns the index after it, or
// -1. It calls member with each key and the index of its value; member
// returns a bit naming the key (0 for keys it ignores) and the index
// after the value, or -1. A key whose bit was already seen fails the
// object: encoding/json would keep the last, and parseStd handles that.
func (s *scanner) object(i int, member func(key []byte, i int) (bit uint16, next int)) int {
	b := s.Src
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = s.Space(i + 1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	var seen uint16
	for {
		key, next := s.key(i)
		if next < 0 {
			return -1
		}
		bit, next := member(key, next)
		if next < 0 || seen&bit != 0 {
			return -1
		}
		seen |= bit
		i, _ = s.Next(next, '}')
		if i < 0 || b[i-1] == '}' {
			return i
		}
	}
}

// array reads the array or null at Src[i] and returns the index after
// it, or -1. It calls element with the index of each element, which
// returns the index after the element, or -1.
func (s *scanner) array(i int, element func(i int) int) int {
	i, done := s.OpenArray(i)
	if done {
		return i
	}
	for {
		i, _ = s.Next(element(i), ']')
		if i < 0 || s.Src[i-1] == ']' {
			return i
		}
	}
}

// rawValue returns the bytes of the value at Src[i], nested depth levels
// deep, and the index after it, or -1.
func (s *scanner) rawValue(i, depth int) ([]byte, int) {
	end := s.Value(i, depth)
	if end < 0 {
		return nil, -1
	}
	return s.Src[i:end], end
}

// resources reads the resources array: each resource's own fields, and
// only the extent of each instance, which decodeInstances reads later.
func (s *scanner) resources(i int, top *fastTop) int {
	return s.array(i, func(i int) int {
		r := fastResource{first: len(top.instances)}
		i = s.object(i, func(key []byte, i int) (uint16, int) {
			switch string(key) {
			case "module":
				return s.stringMember(&r.module, 1, i)
			case "mode":
				return s.stringMember(&r.mode, 2, i)
			case "type":
				return s.stringMember(&r.typ, 4, i)
			case "name":
				return s.stringMember(&r.name, 8, i)
			case "each":
				_, i = s.stringValue(i)
				return 16, i
			case "provider":
				return s.stringMember(&r.provider, 32, i)
			case "instances":
				return 64, s.instanceSpans(i, top)
			}
			return 0, s.Value(i, 3)
		})
		r.count = len(top.instances) - r.first
		top.resources = append(top.resources, r)
		return i
	})
}

// instanceSpans records where each element of an instances array starts
// and ends. Elements must be objects.
func (s *scanner) instanceSpans(i int, top *fastTop) int {
	b := s.Src
	return s.array(i, func(i int) int {
		if i >= len(b) || b[i] != '{' {
			return -1
		}
		end := jsontext.BalancedEnd(b, i)
		if end >= 0 {
			top.instances = append(top.instances, span{i, end})
		}
		return end
	})
}

// build turns the scanned file into a File: resource addresses and
// providers first, then the instances (in parallel on large files), then
// the state maps, in file order.
func (top *fastTop) build(src []byte) (*File, bool) {
	s := state.NewState()
	f := &File{TerraformVersion: top.tfVersion, Serial: top.serial, Lineage: top.lineage, State: s}

	if len(top.outputs) > 0 && string(top.outputs) != "null" {
		var outputs map[string]outputV4
		if err := json.Unmarshal(top.outputs, &outputs); err != nil {
			return nil, false
		}
		for name, o := range outputs {
			if !hclsyntax.ValidIdentifier(name) {
				return nil, false
			}
			ov, err := decodeOutput(o)
			if err != nil {
				return nil, false
			}
			s.Outputs[name] = ov
		}
	}

	type resolved struct {
		addr     addrs.AbsResource
		provider addrs.AbsProviderConfig
	}
	heads := make([]resolved, len(top.resources))
	modules := map[string]addrs.ModuleInstance{}
	providers := map[string]addrs.AbsProviderConfig{}
	for k := range top.resources {
		rr := &top.resources[k]
		mode := addrs.ParseResourceMode(rr.mode)
		if mode == addrs.InvalidResourceMode {
			return nil, false
		}
		if !validIdentifier(rr.typ) || !validIdentifier(rr.name) || rr.provider == "" {
			return nil, false
		}
		mod, ok := modules[rr.module]
		if !ok {
			parsed, diags := addrs.ParseModuleInstanceStr(rr.module)
			if diags.HasErrors() {
				return nil, false
			}
			mod = parsed
			modules[rr.module] = mod
		}
		provider, ok := providers[rr.provider]
		if !ok {
			p, err := addrs.ParseAbsProviderConfigStr(rr.provider)
			if err != nil {
				return nil, false
			}
			provider = p
			providers[rr.provider] = p
		}
		heads[k] = resolved{addr: addrs.Resource{Mode: mode, Type: rr.typ, Name: rr.name}.Absolute(mod), provider: provider}
	}

	decoded := make([]decodedInstance, len(top.instances))
	if !decodeInstances(src, top.instances, decoded) {
		return nil, false
	}

	for k := range top.resources {
		rr := &top.resources[k]
		head := &heads[k]
		if rr.count == 0 {
			if s.Resource(head.addr) != nil {
				return nil, false // listed twice: parseStd compares providers
			}
			continue
		}
		m := s.EnsureModule(head.addr.Module)
		rk := head.addr.Resource.String()
		if m.Resources[rk] != nil {
			return nil, false // listed twice: parseStd merges or refuses
		}
		r := &state.Resource{Addr: head.addr, ProviderConfig: head.provider, Instances: make(map[addrs.InstanceKey]*state.ResourceInstance, rr.count)}
		m.Resources[rk] = r
		block := make([]state.ResourceInstance, rr.count)
		for n, di := range decoded[rr.first : rr.first+rr.count] {
			is := r.Instances[di.key]
			if is == nil {
				is = &block[n]
				r.Instances[di.key] = is
			}
			if di.deposed == state.NotDeposed {
				if is.Current != nil {
					return nil, false
				}
				is.Current = di.obj
				continue
			}
			if is.Deposed[di.deposed] != nil {
				return nil, false
			}
			if is.Deposed == nil {
				is.Deposed = map[state.DeposedKey]*state.ObjectSrc{}
			}
			is.Deposed[di.deposed] = di.obj
		}
	}

	checks, err := filterCheckResults(top.checks)
	if err != nil {
		return nil, false
	}
	s.CheckResults = checks
	return f, true
}

// validIdentifier is hclsyntax.ValidIdentifier, which runs HCL's scanner,
// with a shortcut for ASCII names.
func validIdentifier(s string) bool {
	return isASCIIIdent(s) || hclsyntax.ValidIdentifier(s)
}
