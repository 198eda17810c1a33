package eval

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/state"
)

// MarshalDynamic encodes a known value as plain JSON (no type wrapper).
func MarshalDynamic(v cty.Value) ([]byte, error) {
	return ctyjson.Marshal(v, v.Type())
}

// DecodeObject turns a stored object into a value of the current schema,
// asking the provider to upgrade it when the stored version is older.
func DecodeObject(ctx context.Context, p providers.Interface, sch *providers.Schema, typ string, obj *state.ObjectSrc) (cty.Value, error) {
	ty := ImpliedType(sch.Block)
	if obj.SchemaVersion == uint64(sch.Version) || p == nil {
		v, err := state.UnmarshalAttrs(obj.AttrsJSON, ty)
		if err == nil {
			return v, nil
		}
		if p == nil {
			return cty.NilVal, err
		}
	}
	resp := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: typ, Version: int64(obj.SchemaVersion), RawJSON: obj.AttrsJSON})
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
	}
	return resp.UpgradedState, nil
}

// EncodeObject turns a (possibly marked) value into a state object.
func EncodeObject(v cty.Value, sch *providers.Schema, deps []addrs.ConfigResource, cbd bool, private []byte, status state.ObjectStatus) (*state.ObjectSrc, error) {
	uv, paths := UnmarkPaths(v)
	js, err := state.MarshalAttrs(uv, ImpliedType(sch.Block))
	if err != nil {
		return nil, err
	}
	return &state.ObjectSrc{
		SchemaVersion:       uint64(sch.Version),
		AttrsJSON:           js,
		Private:             private,
		Status:              status,
		Dependencies:        deps,
		CreateBeforeDestroy: cbd,
		SensitivePaths:      paths,
	}, nil
}

// SchemaSensitivePaths lists the paths the schema marks sensitive in v.
func SchemaSensitivePaths(b *providers.Block, v cty.Value) []cty.Path {
	if b == nil || v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []cty.Path
	for name, a := range b.Attributes {
		if a.Sensitive {
			out = append(out, cty.GetAttrPath(name))
		}
	}
	for name, nb := range b.BlockTypes {
		if !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
			continue
		}
		bv := v.GetAttr(name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			for _, p := range SchemaSensitivePaths(&nb.Block, bv) {
				out = append(out, append(cty.GetAttrPath(name), p...))
			}
		case providers.NestingList, providers.NestingMap:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				for _, p := range SchemaSensitivePaths(&nb.Block, ev) {
					out = append(out, append(cty.GetAttrPath(name).Index(k), p...))
				}
			}
		}
	}
	return out
}

// impliedTypes caches Block.ImpliedType, which builds a fresh object type
// (maps and all) on every call and is needed several times per instance.
// Keys are weak so a schema that is dropped takes its entry with it.
var impliedTypes sync.Map // weak.Pointer[providers.Block] -> cty.Type

// ImpliedType is b.ImpliedType(), computed once per schema block. Schemas
// are not changed after a provider returns them.
func ImpliedType(b *providers.Block) cty.Type {
	if b == nil {
		return b.ImpliedType()
	}
	key := weak.Make(b)
	if t, ok := impliedTypes.Load(key); ok {
		return t.(cty.Type)
	}
	t := b.ImpliedType()
	if _, loaded := impliedTypes.LoadOrStore(key, t); !loaded {
		runtime.AddCleanup(b, func(k weak.Pointer[providers.Block]) { impliedTypes.Delete(k) }, key)
	}
	return t
}
