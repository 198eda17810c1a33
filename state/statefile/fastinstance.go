package statefile

import (
	"encoding/base64"
	"encoding/json"
	"math"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/jsontext"
	"github.com/tenetplan/tenet/state"
)

// decodedInstance is one instances element, decoded.
type decodedInstance struct {
	key     addrs.InstanceKey
	deposed state.DeposedKey
	obj     *state.ObjectSrc
}

// instanceDecoder decodes a run of instance objects. It allocates the
// objects and their attribute bytes in blocks, one per run, rather than
// one by one.
type instanceDecoder struct {
	s       scanner
	objs    []state.ObjectSrc
	arena   []byte
	depends map[string]addrs.ConfigResource
}

func decodeInstanceRun(src []byte, spans []span, out []decodedInstance) bool {
	size := 0
	for _, sp := range spans {
		size += sp.end - sp.start
	}
	d := instanceDecoder{
		s:     newScanner(src),
		objs:  make([]state.ObjectSrc, len(spans)),
		arena: make([]byte, 0, size),
	}
	for k, sp := range spans {
		if !d.decode(sp, &d.objs[k], &out[k]) {
			return false
		}
	}
	return true
}

// keep copies b into the arena and returns the copy, capped so appending
// to it cannot overwrite its neighbour.
func (d *instanceDecoder) keep(b []byte) []byte {
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return d.arena[start:len(d.arena):len(d.arena)]
}

// keepCompact is keep for a valid value with whitespace outside its
// strings, which it drops as json.Compact does (OpenTofu indents its
// state files).
func (d *instanceDecoder) keepCompact(raw []byte) []byte {
	start := len(d.arena)
	inString := false
	for j := 0; j < len(raw); j++ {
		c := raw[j]
		switch {
		case inString:
			d.arena = append(d.arena, c)
			if c == '\\' {
				j++
				d.arena = append(d.arena, raw[j])
			} else if c == '"' {
				inString = false
			}
		case jsontext.IsSpace(c):
		default:
			inString = c == '"'
			d.arena = append(d.arena, c)
		}
	}
	return d.arena[start:len(d.arena):len(d.arena)]
}

// decode reads one instance object, mirroring what decodeObject and
// decodeResource accept from encoding/json's instanceV4.
func (d *instanceDecoder) decode(sp span, obj *state.ObjectSrc, out *decodedInstance) bool {
	s := &d.s
	b := s.Src
	var attrs, sensitive []byte
	var status, deposed, provider string
	key := addrs.NoKey
	i := s.object(sp.start, func(name []byte, i int) (uint16, int) {
		switch string(name) {
		case "index_key":
			var ok bool
			if key, i, ok = d.indexKey(i); !ok {
				return 0, -1
			}
			return 1, i
		case "status":
			return s.stringMember(&status, 2, i)
		case "deposed":
			return s.stringMember(&deposed, 4, i)
		case "provider":
			return s.stringMember(&provider, 8, i)
		case "schema_version":
			return s.uintMember(&obj.SchemaVersion, 16, i)
		case "attributes":
			s.SawSpace = false
			if attrs, i = s.rawValue(i, 5); i < 0 {
				return 0, -1
			}
			if attrs[0] == '{' {
				if s.SawSpace {
					obj.AttrsJSON = d.keepCompact(attrs)
				} else {
					obj.AttrsJSON = d.keep(attrs)
				}
			}
			return 32, i
		case "attributes_flat":
			return 0, -1
		case "sensitive_attributes":
			return s.rawMember(&sensitive, 64, i, 5)
		case "private":
			return 128, d.private(i, obj)
		case "dependencies":
			return 256, d.dependencies(i, obj)
		case "create_before_destroy":
			switch {
			case s.IsNull(i):
				i += 4
			case i < len(b) && b[i] == 't':
				obj.CreateBeforeDestroy = true
				i = s.Literal(i, "true")
			default:
				i = s.Literal(i, "false")
			}
			return 512, i
		}
		return 0, s.Value(i, 5)
	})
	if i != sp.end {
		return false
	}
	switch status {
	case "":
		obj.Status = state.ObjectReady
	case "tainted":
		obj.Status = state.ObjectTainted
	default:
		return false
	}
	if len(attrs) > 0 && string(attrs) != "null" && attrs[0] != '{' {
		return false
	}
	if len(sensitive) > 0 && !isEmptyArray(sensitive) && string(sensitive) != "null" {
		paths, err := decodeSensitivePaths(sensitive)
		if err != nil {
			return false
		}
		obj.SensitivePaths = paths
	}
	if provider != "" || deposed != "" && !validDeposedKey(deposed) {
		return false
	}
	*out = decodedInstance{key: key, deposed: state.DeposedKey(deposed), obj: obj}
	return true
}

func isEmptyArray(b []byte) bool {
	if b[0] != '[' {
		return false
	}
	for _, c := range b[1 : len(b)-1] {
		if !jsontext.IsSpace(c) {
			return false
		}
	}
	return b[len(b)-1] == ']'
}

// indexKey reads index_key: null, a whole number or a string.
func (d *instanceDecoder) indexKey(i int) (addrs.InstanceKey, int, bool) {
	s := &d.s
	b := s.Src
	if s.IsNull(i) {
		return addrs.NoKey, i + 4, true
	}
	if i < len(b) && b[i] == '"' {
		end, plain := s.String(i)
		if end < 0 {
			return nil, -1, false
		}
		if plain {
			return addrs.StringKey(b[i+1 : end-1]), end, true
		}
		k, err := decodeIndexKey(b[i:end])
		return k, end, err == nil
	}
	end := s.Value(i, 5)
	if end < 0 {
		return nil, -1, false
	}
	if n := end - i; n <= 9 && b[i] != '-' {
		v, digits := 0, true
		for _, c := range b[i:end] {
			if !isDigit(c) {
				digits = false
				break
			}
			v = v*10 + int(c-'0')
		}
		if digits && v <= math.MaxInt32 {
			return addrs.IntKey(v), end, true
		}
	}
	k, err := decodeIndexKey(b[i:end])
	return k, end, err == nil
}

// private reads the base64 "private" string into the arena.
func (d *instanceDecoder) private(i int, obj *state.ObjectSrc) int {
	s := &d.s
	b := s.Src
	if s.IsNull(i) {
		return i + 4
	}
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	end, plain := s.String(i)
	if end < 0 {
		return -1
	}
	if !plain {
		if err := json.Unmarshal(b[i:end], &obj.Private); err != nil {
			return -1
		}
		return end
	}
	enc := b[i+1 : end-1]
	if len(enc) == 0 {
		obj.Private = []byte{}
		return end
	}
	start := len(d.arena)
	need := base64.StdEncoding.DecodedLen(len(enc))
	d.arena = append(d.arena, make([]byte, need)...)
	n, err := base64.StdEncoding.Decode(d.arena[start:], enc)
	if err != nil {
		return -1
	}
	d.arena = d.arena[:start+n]
	obj.Private = d.arena[start : start+n : start+n]
	return end
}

// dependencies reads the list of resource addresses, parsing each
// distinct one once per run.
func (d *instanceDecoder) dependencies(i int, obj *state.ObjectSrc) int {
	s := &d.s
	b := s.Src
	var deps []addrs.ConfigResource
	i = s.array(i, func(i int) int {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		var str string
		if str, i = s.stringValue(i); i < 0 {
			return -1
		}
		r, ok := d.depends[str]
		if !ok {
			if r, ok = parseDependency(str); !ok {
				return -1
			}
			if d.depends == nil {
				d.depends = map[string]addrs.ConfigResource{}
			}
			d.depends[str] = r
		}
		deps = append(deps, r)
		return i
	})
	if i >= 0 {
		obj.Dependencies = deps
	}
	return i
}

// parseDependency is addrs.ParseAbsResourceStr(s).Config(). Addresses made
// of plain ASCII identifiers, as nearly all are, are split here: HCL's
// traversal parser would cost more than the rest of reading a chained
// resource's instance.
func parseDependency(s string) (addrs.ConfigResource, bool) {
	if r, ok := splitDependency(s); ok {
		return r, true
	}
	abs, diags := addrs.ParseAbsResourceStr(s)
	if diags.HasErrors() {
		return addrs.ConfigResource{}, false
	}
	return abs.Config(), true
}

// splitDependency reads [module.NAME.]...[data.]TYPE.NAME where every part
// is an ASCII identifier; ok is false for anything else.
func splitDependency(s string) (r addrs.ConfigResource, ok bool) {
	var parts [16]string
	n := 0
	for start := 0; start <= len(s); {
		end := start
		for end < len(s) && s[end] != '.' {
			end++
		}
		if n == len(parts) || !isASCIIIdent(s[start:end]) {
			return r, false
		}
		parts[n] = s[start:end]
		n++
		start = end + 1
	}
	rest := parts[:n]
	for len(rest) > 0 && rest[0] == "module" {
		if len(rest) < 2 {
			return r, false
		}
		r.Module = append(r.Module, rest[1])
		rest = rest[2:]
	}
	r.Resource.Mode = addrs.ManagedResourceMode
	if len(rest) > 0 && rest[0] == "data" {
		r.Resource.Mode = addrs.DataResourceMode
		rest = rest[1:]
	}
	if len(rest) != 2 {
		return r, false
	}
	r.Resource.Type, r.Resource.Name = rest[0], rest[1]
	return r, true
}

// isASCIIIdent reports whether s is an HCL identifier made of ASCII:
// a letter or underscore, then letters, digits, underscores and dashes.
func isASCIIIdent(s string) bool {
	if s == "" || !(s[0] == '_' || 'a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}
