package human

import (
	"sort"

	"github.com/tenetplan/tenet/providers"
	"github.com/zclconf/go-cty/cty"
)

// blockInfo is what drawing needs from a block schema, worked out once per
// resource type instead of once per resource: attributes and nested block
// types in name order, with their display keys and types.
type blockInfo struct {
	attrs  []attrInfo
	blocks []nestedInfo
}

type attrInfo struct {
	name      string
	key       string // as displayed
	ty        cty.Type
	sensitive bool
	important bool
}

type nestedInfo struct {
	name string
	nb   *providers.NestedBlock
	body *blockInfo
}

// newBlockInfo describes b; nil for no schema.
func newBlockInfo(b *providers.Block) *blockInfo {
	if b == nil {
		return nil
	}
	info := &blockInfo{attrs: make([]attrInfo, 0, len(b.Attributes))}
	for name, a := range b.Attributes {
		info.attrs = append(info.attrs, attrInfo{name: name, key: attributeKey(name), ty: a.ImpliedType(), sensitive: a.Sensitive, important: isImportant(name)})
	}
	sort.Slice(info.attrs, func(i, j int) bool { return info.attrs[i].name < info.attrs[j].name })
	for name, nb := range b.BlockTypes {
		info.blocks = append(info.blocks, nestedInfo{name: name, nb: nb, body: newBlockInfo(&nb.Block)})
	}
	sort.Slice(info.blocks, func(i, j int) bool { return info.blocks[i].name < info.blocks[j].name })
	return info
}

// schemaCache remembers the schema of each resource type: looking one up
// can cost more than drawing the resource. Only lookups of types already
// seen are safe while other goroutines use it.
type schemaCache struct {
	source SchemaLookup
	byType map[schemaKey]*blockInfo
}

type schemaKey struct{ provider, mode, typ string }

func newSchemaCache(source SchemaLookup) *schemaCache {
	return &schemaCache{source: source, byType: map[schemaKey]*blockInfo{}}
}

func (c *schemaCache) lookup(k schemaKey) *blockInfo {
	if c.source == nil {
		return nil
	}
	info, ok := c.byType[k]
	if !ok {
		info = newBlockInfo(c.source.ResourceSchema(k.provider, k.mode, k.typ))
		c.byType[k] = info
	}
	return info
}
