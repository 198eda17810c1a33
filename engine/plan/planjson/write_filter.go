package planjson

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// ChangeMembers says which members of a resource change element (of
// resource_changes in the JSON plan) a reader can read.
// Paths name members from the element down: ("change", "after", "tags").
// policy.Set implements it from what its compiled policies refer to.
type ChangeMembers interface {
	// ReadsChangeMember reports whether the member at path can be read:
	// it, or a member below it, is read, or a member above it is read
	// whole.
	ReadsChangeMember(path ...string) bool
	// ReadsChangeWhole reports whether everything below path can be read.
	ReadsChangeWhole(path ...string) bool
}

// changeFields is a ChangeMembers resolved for the members the encoder
// writes, once per document rather than once per change.
type changeFields struct {
	address, previousAddress, moduleAddress, mode, typ, name, index bool
	providerName, deposed, change, actionReason                     bool
	actions, before, after, afterUnknown, beforeSensitive           bool
	afterSensitive, replacePaths, importing                         bool
	// beforeAttr and afterAttr, when not nil, pick the top-level
	// attributes of an object value to write; nil writes all of them.
	beforeAttr, afterAttr func(name string) bool
}

// allChangeFields writes every member.
var allChangeFields = &changeFields{
	address: true, previousAddress: true, moduleAddress: true, mode: true, typ: true, name: true, index: true,
	providerName: true, deposed: true, change: true, actionReason: true,
	actions: true, before: true, after: true, afterUnknown: true, beforeSensitive: true,
	afterSensitive: true, replacePaths: true, importing: true,
}

func newChangeFields(m ChangeMembers) *changeFields {
	if m == nil || m.ReadsChangeWhole() {
		return allChangeFields
	}
	read := m.ReadsChangeMember
	f := &changeFields{
		address: read("address"), previousAddress: read("previous_address"),
		moduleAddress: read("module_address"), mode: read("mode"), typ: read("type"),
		name: read("name"), index: read("index"), providerName: read("provider_name"),
		deposed: read("deposed"), change: read("change"), actionReason: read("action_reason"),
		actions: read("change", "actions"), before: read("change", "before"),
		after: read("change", "after"), afterUnknown: read("change", "after_unknown"),
		beforeSensitive: read("change", "before_sensitive"), afterSensitive: read("change", "after_sensitive"),
		replacePaths: read("change", "replace_paths"), importing: read("change", "importing"),
	}
	for _, v := range []struct {
		name string
		pick *func(string) bool
	}{{"before", &f.beforeAttr}, {"after", &f.afterAttr}} {
		if !m.ReadsChangeWhole("change", v.name) {
			*v.pick = func(attr string) bool { return m.ReadsChangeMember("change", v.name, attr) }
		}
	}
	return f
}

// appendResourceIdentityFields is appendResourceIdentity (with the module)
// writing only the members f keeps.
func appendResourceIdentityFields(b []byte, addr addrs.AbsResourceInstance, f *changeFields) []byte {
	if f == allChangeFields {
		return appendResourceIdentity(b, addr, true)
	}
	if f.moduleAddress && !addr.Module.IsRoot() {
		b = appendKey(b, "module_address")
		b = appendString(b, addr.Module.String())
	}
	r := addr.Resource.Resource
	if f.mode {
		b = appendKey(b, "mode")
		b = appendString(b, r.Mode.String())
	}
	if f.typ {
		b = appendKey(b, "type")
		b = appendString(b, r.Type)
	}
	if f.name {
		b = appendKey(b, "name")
		b = appendString(b, r.Name)
	}
	if addr.Resource.Key != nil && f.index {
		b = appendKey(b, "index")
		b = appendInstanceKey(b, addr.Resource.Key)
	}
	return b
}

// appendChangeValueAttrs is appendChangeValue writing, of a known object,
// only the attributes pick keeps (all when pick is nil).
func appendChangeValueAttrs(b []byte, key string, v cty.Value, pick func(string) bool) []byte {
	if pick == nil || v == cty.NilVal || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return appendChangeValue(b, key, v)
	}
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	b = appendKey(b, key)
	b = append(b, '{')
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if !ev.IsKnown() || !pick(k.AsString()) {
			continue
		}
		b = appendKey(b, k.AsString())
		b = AppendValue(b, ev)
	}
	return append(b, '}')
}
