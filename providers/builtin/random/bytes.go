package random

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

var bytesSchema = &providers.Block{
	Description: "Random bytes meant as secrets or keys.",
	Attributes: map[string]*providers.Attribute{
		"keepers": keepersAttribute,
		"length":  {Type: cty.Number, Required: true, Description: "How many bytes; at least 1."},
		"base64":  {Type: cty.String, Computed: true, Sensitive: true, Description: "The bytes in standard padded base64."},
		"hex":     {Type: cty.String, Computed: true, Sensitive: true, Description: "The bytes in lower-case hexadecimal."},
		"id":      {Type: cty.String, Computed: true, Description: `Always "none".`},
	},
}

func validateBytes(config cty.Value) providers.Diagnostics {
	return validateByteCount(config, "length")
}

// validateByteCount checks the argument name, a count of random bytes: a
// whole number from 1 to 1 MiB.
func validateByteCount(config cty.Value, name string) providers.Diagnostics {
	var diags providers.Diagnostics
	if v, ok := kit.Known(config, name); ok {
		if n, isInt := kit.Int(config, name); !isInt || n < 1 || n > 1<<20 {
			diags = diags.Errorf(cty.GetAttrPath(name), "Invalid "+name,
				name+" must be a whole number between 1 and 1048576, not "+v.AsBigFloat().String()+".")
		}
	}
	return diags
}

// randomBytes reads as many random bytes as planned's argument name says.
func randomBytes(planned cty.Value, name string) ([]byte, providers.Diagnostics) {
	n, _ := kit.Int(planned, name)
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		return nil, randomFailed(err)
	}
	return buf, nil
}

func applyBytes(planned cty.Value) (cty.Value, providers.Diagnostics) {
	buf, diags := randomBytes(planned, "length")
	if diags != nil {
		return cty.NilVal, diags
	}
	return withValues(planned, bytesValues(buf)), nil
}

func bytesValues(buf []byte) map[string]cty.Value {
	return map[string]cty.Value{
		"base64": cty.StringVal(base64.StdEncoding.EncodeToString(buf)),
		"hex":    cty.StringVal(hex.EncodeToString(buf)),
		"id":     cty.StringVal("none"),
	}
}

// importBytes takes the bytes in standard padded base64.
func importBytes(id string) (map[string]cty.Value, providers.Diagnostics) {
	buf, err := base64.StdEncoding.DecodeString(id)
	if err != nil {
		return nil, importError("Invalid random_bytes import ID",
			fmt.Sprintf("The import ID is not standard base64: %s. Give the base64 value.", err))
	}
	vals := bytesValues(buf)
	vals["length"] = cty.NumberIntVal(int64(len(buf)))
	return vals, nil
}
