package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// ErrNoState is returned by Read for an empty input: there is no state yet.
var ErrNoState = errors.New("no state")

// Read decodes a state file. Empty input (only whitespace) gives
// ErrNoState. Versions other than 4 and malformed content are errors that
// say what is wrong and, where it applies, at which resource address.
func Read(r io.Reader) (*File, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading state file: %w", err)
	}
	return Parse(src)
}

// Parse is Read over bytes already in memory.
func Parse(src []byte) (*File, error) {
	if f, ok := parseFast(src); ok {
		return f, nil
	}
	return parseStd(src)
}

// parseStd is the reference reader, built on encoding/json. Parse uses it
// for whatever parseFast declines, so every error message comes from here.
func parseStd(src []byte) (*File, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrNoState
	}
	var head struct {
		Version *json.Number `json:"version"`
	}
	if err := json.Unmarshal(src, &head); err != nil {
		return nil, jsonError(src, err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf("invalid state file: the \"version\" property is missing; this does not look like a state file")
	}
	version, err := head.Version.Int64()
	if err != nil || version < 0 {
		return nil, fmt.Errorf("invalid state file: \"version\" must be a whole number, not %s", clip(head.Version.String()))
	}
	switch {
	case version > FormatVersion:
		return nil, fmt.Errorf("Unsupported state file format: the state file uses format version %d, but this version of tenet supports only version %d; a newer tool wrote it", version, FormatVersion)
	case version < FormatVersion:
		return nil, fmt.Errorf("Unsupported state file format: the state file uses the old format version %d; upgrade it to version %d by running any state-changing command with OpenTofu first", version, FormatVersion)
	}

	var raw fileV4
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(src, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(src, off)
		return nil, fmt.Errorf("invalid state file: unexpected content after the JSON object at line %d, column %d", line, col)
	}
	return decodeV4(&raw)
}

func jsonError(src []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(src, syn.Offset-1) // Offset counts the offending byte
		return fmt.Errorf("invalid state file: the JSON is malformed at line %d, column %d: %s", line, col, syn.Error())
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := lineCol(src, typ.Offset)
		where := "the top level"
		if typ.Field != "" {
			where = fmt.Sprintf("%q", clip(typ.Field))
		}
		got := "a JSON " + typ.Value
		if num, ok := strings.CutPrefix(typ.Value, "number "); ok {
			got = "the number " + clip(num)
		}
		return fmt.Errorf("invalid state file: at line %d, column %d, %s must be %s, not %s", line, col, where, typeWords(typ.Type), got)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		line, col := lineCol(src, int64(len(src)))
		return fmt.Errorf("invalid state file: the JSON ends unexpectedly at line %d, column %d (is the file truncated?)", line, col)
	}
	return fmt.Errorf("invalid state file: %w", err)
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(src []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(src)))
	before := src[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

type fileV4 struct {
	Version          uint64              `json:"version"`
	TerraformVersion string              `json:"terraform_version"`
	Serial           uint64              `json:"serial"`
	Lineage          string              `json:"lineage"`
	Outputs          map[string]outputV4 `json:"outputs"`
	Resources        []resourceV4        `json:"resources"`
	CheckResults     json.RawMessage     `json:"check_results"`
}

type outputV4 struct {
	Value      json.RawMessage `json:"value"`
	Type       json.RawMessage `json:"type"`
	Sensitive  bool            `json:"sensitive"`
	Deprecated string          `json:"deprecated"`
}

type resourceV4 struct {
	Module    string       `json:"module"`
	Mode      string       `json:"mode"`
	Type      string       `json:"type"`
	Name      string       `json:"name"`
	Each      string       `json:"each"`
	Provider  string       `json:"provider"`
	Instances []instanceV4 `json:"instances"`
}

type instanceV4 struct {
	IndexKey            json.RawMessage   `json:"index_key"`
	Status              string            `json:"status"`
	Deposed             string            `json:"deposed"`
	Provider            string            `json:"provider"`
	SchemaVersion       uint64            `json:"schema_version"`
	Attributes          json.RawMessage   `json:"attributes"`
	AttributesFlat      map[string]string `json:"attributes_flat"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes"`
	Private             []byte            `json:"private"`
	Dependencies        []string          `json:"dependencies"`
	CreateBeforeDestroy bool              `json:"create_before_destroy"`
}

func decodeV4(raw *fileV4) (*File, error) {
	s := state.NewState()
	f := &File{TerraformVersion: raw.TerraformVersion, Serial: raw.Serial, Lineage: raw.Lineage, State: s}

	for name, o := range raw.Outputs {
		if !hclsyntax.ValidIdentifier(name) {
			return nil, fmt.Errorf("invalid state file: output name %q is not a valid identifier", clip(name))
		}
		ov, err := decodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("invalid state file: output %q: %w", clip(name), err)
		}
		s.Outputs[name] = ov
	}

	for i := range raw.Resources {
		if err := decodeResource(s, &raw.Resources[i]); err != nil {
			return nil, err
		}
	}

	checks, err := filterCheckResults(raw.CheckResults)
	if err != nil {
		return nil, err
	}
	s.CheckResults = checks
	return f, nil
}

func decodeOutput(o outputV4) (*state.OutputValue, error) {
	if len(o.Type) == 0 {
		return nil, fmt.Errorf("the \"type\" property is missing")
	}
	ty, err := ctyjson.UnmarshalType(o.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type: %w", err)
	}
	val := o.Value
	if len(val) == 0 {
		val = []byte("null")
	}
	if num := findHugeNumber(val); num != "" {
		return nil, hugeNumberError(num)
	}
	v, err := ctyjson.Unmarshal(val, ty)
	if err != nil {
		return nil, fmt.Errorf("the value does not match its type %s: %w", ty.FriendlyName(), err)
	}
	return &state.OutputValue{Value: v, Sensitive: o.Sensitive, Deprecated: o.Deprecated}, nil
}

func decodeResource(s *state.State, rr *resourceV4) error {
	mode := addrs.ParseResourceMode(rr.Mode)
	if mode == addrs.InvalidResourceMode {
		return fmt.Errorf("invalid state file: resource %s.%s has mode %q; want \"managed\" or \"data\"", clip(rr.Type), clip(rr.Name), clip(rr.Mode))
	}
	if !hclsyntax.ValidIdentifier(rr.Type) || !hclsyntax.ValidIdentifier(rr.Name) {
		return fmt.Errorf("invalid state file: resource type %q and name %q must both be valid identifiers", clip(rr.Type), clip(rr.Name))
	}
	mod, diags := addrs.ParseModuleInstanceStr(rr.Module)
	if diags.HasErrors() {
		return fmt.Errorf("invalid state file: resource %s.%s has an invalid module address %q", rr.Type, rr.Name, clip(rr.Module))
	}
	resAddr := addrs.Resource{Mode: mode, Type: rr.Type, Name: rr.Name}.Absolute(mod)
	if rr.Provider == "" {
		if slices.ContainsFunc(rr.Instances, func(i instanceV4) bool { return i.Provider != "" }) {
			return fmt.Errorf("invalid state file: resource %s uses per-instance provider configurations (provider for_each), which tenet does not support yet", resAddr)
		}
		return fmt.Errorf("invalid state file: resource %s has no \"provider\"", resAddr)
	}
	provider, err := addrs.ParseAbsProviderConfigStr(rr.Provider)
	if err != nil {
		return fmt.Errorf("invalid state file: resource %s: invalid provider address %q; want one such as provider[\"registry.opentofu.org/hashicorp/aws\"]", resAddr, clip(rr.Provider))
	}
	if existing := s.Resource(resAddr); existing != nil && existing.ProviderConfig.String() != provider.String() {
		return fmt.Errorf("invalid state file: resource %s is listed twice with different providers", resAddr)
	}

	for i := range rr.Instances {
		ri := &rr.Instances[i]
		key, err := decodeIndexKey(ri.IndexKey)
		if err != nil {
			return fmt.Errorf("invalid state file: resource %s: %w", resAddr, err)
		}
		addr := resAddr.Instance(key)
		obj, err := decodeObject(ri)
		if err != nil {
			if ri.Deposed != "" {
				return fmt.Errorf("invalid state file: resource instance %s, deposed object %s: %w", addr, clip(ri.Deposed), err)
			}
			return fmt.Errorf("invalid state file: resource instance %s: %w", addr, err)
		}
		if ri.Provider != "" {
			return fmt.Errorf("invalid state file: resource instance %s has its own provider %q (provider for_each), which tenet does not support yet", addr, clip(ri.Provider))
		}
		deposed := state.DeposedKey(ri.Deposed)
		if deposed != state.NotDeposed && !validDeposedKey(ri.Deposed) {
			return fmt.Errorf("invalid state file: resource instance %s has deposed key %q; a deposed key is 8 hexadecimal digits", addr, clip(ri.Deposed))
		}
		if s.ResourceInstanceObject(addr, deposed) != nil {
			if deposed == state.NotDeposed {
				return fmt.Errorf("invalid state file: resource instance %s has more than one current object", addr)
			}
			return fmt.Errorf("invalid state file: resource instance %s has deposed object %s more than once", addr, deposed)
		}
		if deposed == state.NotDeposed {
			s.SetResourceInstanceCurrent(addr, obj, provider)
		} else {
			s.SetResourceInstanceDeposed(addr, deposed, obj, provider)
		}
	}
	return nil
}

func validDeposedKey(k string) bool {
	if len(k) != 8 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func decodeIndexKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return addrs.NoKey, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("invalid index_key %s", clip(string(raw)))
		}
		return addrs.StringKey(s), nil
	default:
		var n float64
		if err := json.Unmarshal(raw, &n); err != nil || n != math.Trunc(n) || n < 0 || n > math.MaxInt32 {
			return nil, fmt.Errorf("invalid index_key %s: want a non-negative whole number or a string", clip(string(raw)))
		}
		return addrs.IntKey(int(n)), nil
	}
}

func decodeObject(ri *instanceV4) (*state.ObjectSrc, error) {
	obj := &state.ObjectSrc{SchemaVersion: ri.SchemaVersion, Private: ri.Private, CreateBeforeDestroy: ri.CreateBeforeDestroy}
	switch ri.Status {
	case "":
		obj.Status = state.ObjectReady
	case "tainted":
		obj.Status = state.ObjectTainted
	default:
		return nil, fmt.Errorf("invalid status %q; want \"tainted\" or no status", clip(ri.Status))
	}
	switch {
	case len(ri.AttributesFlat) > 0 && len(ri.Attributes) == 0:
		return nil, fmt.Errorf("the object uses the legacy \"attributes_flat\" encoding; refresh the state with OpenTofu to upgrade it")
	case len(ri.Attributes) > 0 && string(ri.Attributes) != "null":
		if ri.Attributes[0] != '{' {
			return nil, fmt.Errorf("\"attributes\" must be a JSON object")
		}
		var buf bytes.Buffer
		buf.Grow(len(ri.Attributes))
		if err := json.Compact(&buf, ri.Attributes); err != nil {
			return nil, fmt.Errorf("invalid \"attributes\": %w", err)
		}
		obj.AttrsJSON = buf.Bytes()
		if num := findHugeNumber(obj.AttrsJSON); num != "" {
			return nil, fmt.Errorf("in \"attributes\": %w", hugeNumberError(num))
		}
	}
	paths, err := decodeSensitivePaths(ri.SensitiveAttributes)
	if err != nil {
		return nil, err
	}
	obj.SensitivePaths = paths
	if len(ri.Dependencies) > 0 {
		obj.Dependencies = make([]addrs.ConfigResource, 0, len(ri.Dependencies))
		for _, d := range ri.Dependencies {
			r, diags := addrs.ParseAbsResourceStr(d)
			if diags.HasErrors() {
				return nil, fmt.Errorf("invalid dependency %q: it must be a resource address such as module.a.aws_vpc.main", clip(d))
			}
			obj.Dependencies = append(obj.Dependencies, r.Config())
		}
	}
	return obj, nil
}

type pathStepV4 struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

func decodeSensitivePaths(raw json.RawMessage) ([]cty.Path, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var steps [][]pathStepV4
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, fmt.Errorf("invalid \"sensitive_attributes\": want a list of attribute paths, each a list of steps such as {\"type\":\"get_attr\",\"value\":\"password\"}")
	}
	if len(steps) == 0 {
		return nil, nil
	}
	paths := make([]cty.Path, 0, len(steps))
	for _, ps := range steps {
		p := make(cty.Path, 0, len(ps))
		for _, st := range ps {
			switch st.Type {
			case "get_attr":
				var name string
				if err := json.Unmarshal(st.Value, &name); err != nil {
					return nil, fmt.Errorf("invalid \"sensitive_attributes\": a get_attr step needs a string value, not %s", clip(string(st.Value)))
				}
				p = append(p, cty.GetAttrStep{Name: name})
			case "index":
				v, err := ctyjson.Unmarshal(st.Value, cty.DynamicPseudoType)
				if err != nil {
					return nil, fmt.Errorf("invalid \"sensitive_attributes\": bad index step %s: %w", clip(string(st.Value)), err)
				}
				p = append(p, cty.IndexStep{Key: v})
			default:
				return nil, fmt.Errorf("invalid \"sensitive_attributes\": unknown path step type %q", clip(st.Type))
			}
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// checkKinds are the check_results object kinds this version knows; others
// come from newer tools and are dropped, as OpenTofu does.
var checkKinds = map[string]bool{"resource": true, "output": true, "check": true, "var": true}

func filterCheckResults(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("invalid state file: \"check_results\" must be a list")
	}
	kept := entries[:0]
	for _, e := range entries {
		var head struct {
			Kind string `json:"object_kind"`
		}
		if err := json.Unmarshal(e, &head); err != nil {
			return nil, fmt.Errorf("invalid state file: a \"check_results\" entry must be an object")
		}
		if checkKinds[head.Kind] {
			kept = append(kept, e)
		}
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return nil, fmt.Errorf("invalid state file: check_results: %w", err)
	}
	return out, nil
}
