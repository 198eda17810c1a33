package human

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/cli/views"
)

// RenderStateObject writes one object of the state as `show` and `state
// show` draw it (as OpenTofu does): the resource block with every non-null
// attribute, drawn like a plan's resource body without the action
// symbols, sensitive values hidden unless showSensitive (-show-sensitive).
// attrs is the object's JSON and sensitive its sensitivity tree (true where
// sensitive), as in the JSON plan's before_sensitive; mode is "managed" or
// "data".
func RenderStateObject(w io.Writer, schemas SchemaLookup, providerName, mode, typ, name string, attrs, sensitive []byte, showSensitive bool) error {
	before, err := decodeJSONValue(attrs)
	if err != nil {
		return fmt.Errorf("attributes: %w", err)
	}
	var sens any
	if len(sensitive) > 0 {
		if sens, err = decodeJSONValue(sensitive); err != nil {
			return fmt.Errorf("sensitivity: %w", err)
		}
	}
	vc := valueChange{before: before, after: before, beforeSensitive: sens, afterSensitive: sens, reveal: showSensitive}
	node := diffBlock(vc, newSchemaCache(schemas).lookup(schemaKey{providerName, mode, typ}))
	p := &printer{hideSymbols: true, showUnchanged: true}
	if mode == "data" {
		p.WriteString("data ")
	} else {
		p.WriteString("resource ")
	}
	p.WriteString(strconv.Quote(typ))
	p.WriteString(" ")
	p.WriteString(strconv.Quote(name))
	p.WriteString(" ")
	node.r.writeValue(p, node, 0)
	p.WriteString("\n")
	_, err = io.WriteString(w, p.String())
	return err
}

func decodeJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// WriteStateOutputs writes the root outputs as `show` lists them after the
// resources: `name = value`, values drawn like plan values without
// symbols, sensitive ones hidden unless showSensitive.
func WriteStateOutputs(w io.Writer, outputs map[string]views.OutputValue, showSensitive bool) error {
	p := &printer{hideSymbols: true, showUnchanged: true}
	for _, name := range views.SortedOutputNames(outputs) {
		o := outputs[name]
		p.WriteString(name)
		p.WriteString(" = ")
		if o.Sensitive && !showSensitive {
			p.WriteString(views.SensitiveText)
			p.WriteString("\n")
			continue
		}
		val, _ := o.Value.UnmarkDeep()
		js, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return fmt.Errorf("output %s: %w", name, err)
		}
		v, err := decodeJSONValue(js)
		if err != nil {
			return fmt.Errorf("output %s: %w", name, err)
		}
		node := diffAttribute(valueChange{before: v, after: v}, val.Type())
		node.r.writeValue(p, node, 0)
		p.WriteString("\n")
	}
	_, err := io.WriteString(w, p.String())
	return err
}
