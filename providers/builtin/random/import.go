package random

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// The import IDs are those hashicorp/random accepts, and the imported
// objects carry the same attributes, so an import plans the same in
// either tool.

// importer turns an import ID into the attributes of the imported object;
// attributes it leaves out are null.
type importer func(id string) (map[string]cty.Value, providers.Diagnostics)

func importable(r *kit.Resource, typeName string, fn importer) *kit.Resource {
	schema := r.Schema.Block
	r.Import = func(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
		vals, diags := fn(req.ID)
		if diags.HasErrors() {
			return providers.ImportResourceStateResponse{Diagnostics: diags}
		}
		obj := make(map[string]cty.Value, len(schema.Attributes))
		for name, a := range schema.Attributes {
			if v, ok := vals[name]; ok {
				obj[name] = v
			} else {
				obj[name] = cty.NullVal(a.Type)
			}
		}
		return providers.ImportResourceStateResponse{
			ImportedResources: []providers.ImportedResource{{TypeName: typeName, State: cty.ObjectVal(obj)}},
			Diagnostics:       diags,
		}
	}
	return r
}

func importError(summary, detail string) providers.Diagnostics {
	var diags providers.Diagnostics
	return diags.Errorf(nil, summary, detail)
}

// importID takes "B64URL" or "PREFIX,B64URL": the text after the last
// comma is the URL-safe base64 of the bytes.
func importID(id string) (map[string]cty.Value, providers.Diagnostics) {
	prefix, enc := "", id
	if i := strings.LastIndex(id, ","); i >= 0 {
		prefix, enc = id[:i], id[i+1:]
	}
	buf, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return nil, importError("Invalid random_id import ID",
			fmt.Sprintf("%q is not URL-safe base64 without padding (%s). Give the b64_url value, optionally after \"PREFIX,\".", enc, err))
	}
	vals := idEncodings(prefix, buf)
	vals["byte_length"] = cty.NumberIntVal(int64(len(buf)))
	vals["keepers"] = cty.MapValEmpty(cty.String)
	if prefix != "" {
		vals["prefix"] = cty.StringVal(prefix)
	}
	return vals, nil
}

// importInteger takes "RESULT,MIN,MAX" or "RESULT,MIN,MAX,SEED".
func importInteger(id string) (map[string]cty.Value, providers.Diagnostics) {
	parts := strings.Split(id, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return nil, importError("Invalid random_integer import ID",
			fmt.Sprintf("%q does not have the form RESULT,MIN,MAX or RESULT,MIN,MAX,SEED.", id))
	}
	vals := map[string]cty.Value{"id": cty.StringVal(parts[0]), "keepers": cty.MapValEmpty(cty.String)}
	for i, name := range []string{"result", "min", "max"} {
		n, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return nil, importError("Invalid random_integer import ID",
				fmt.Sprintf("The %s part %q of the import ID is not a whole number.", name, parts[i]))
		}
		vals[name] = cty.NumberIntVal(n)
	}
	if len(parts) == 4 {
		vals["seed"] = cty.StringVal(parts[3])
	}
	return vals, nil
}

// importString takes the value itself; the arguments get their defaults
// and length is the value's length in bytes.
func importString(password bool) importer {
	return func(id string) (map[string]cty.Value, providers.Diagnostics) {
		vals := map[string]cty.Value{
			"result": cty.StringVal(id),
			"id":     cty.StringVal(id),
			"length": cty.NumberIntVal(int64(len(id))),
		}
		for k, v := range stringDefaults {
			vals[k] = v
		}
		if password {
			vals["id"] = cty.StringVal("none")
			hash, err := bcrypt.GenerateFromPassword([]byte(id), bcrypt.DefaultCost)
			if err != nil {
				return nil, importError("Cannot hash the password", err.Error())
			}
			vals["bcrypt_hash"] = cty.StringVal(string(hash))
		}
		return vals, nil
	}
}
