package random

import (
	"encoding/base64"
	"encoding/hex"
	"math/big"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

var idSchema = &providers.Block{
	Description: "Random bytes, presented in several encodings; suited to unique names.",
	Attributes: map[string]*providers.Attribute{
		"keepers":     keepersAttribute,
		"byte_length": {Type: cty.Number, Required: true, Description: "How many random bytes to produce; at least 1."},
		"prefix":      {Type: cty.String, Optional: true, Description: "Text put before every encoding of the bytes."},
		"id":          {Type: cty.String, Computed: true, Description: "The bytes in URL-safe base64 without padding; never prefixed."},
		"b64_url":     {Type: cty.String, Computed: true, Description: "The bytes in URL-safe base64 without padding, after the prefix."},
		"b64_std":     {Type: cty.String, Computed: true, Description: "The bytes in standard padded base64, after the prefix."},
		"hex":         {Type: cty.String, Computed: true, Description: "The bytes in lower-case hexadecimal, after the prefix."},
		"dec":         {Type: cty.String, Computed: true, Description: "The bytes as a big-endian decimal number, after the prefix."},
	},
}

func validateID(config cty.Value) providers.Diagnostics {
	return validateByteCount(config, "byte_length")
}

func applyID(planned cty.Value) (cty.Value, providers.Diagnostics) {
	buf, diags := randomBytes(planned, "byte_length")
	if diags != nil {
		return cty.NilVal, diags
	}
	return withValues(planned, idEncodings(kit.String(planned, "prefix"), buf)), nil
}

// idEncodings gives the computed attributes for buf: id is the bare
// URL-safe base64, the other encodings carry the prefix.
func idEncodings(prefix string, buf []byte) map[string]cty.Value {
	b64url := base64.RawURLEncoding.EncodeToString(buf)
	return map[string]cty.Value{
		"id":      cty.StringVal(b64url),
		"b64_url": cty.StringVal(prefix + b64url),
		"b64_std": cty.StringVal(prefix + base64.StdEncoding.EncodeToString(buf)),
		"hex":     cty.StringVal(prefix + hex.EncodeToString(buf)),
		"dec":     cty.StringVal(prefix + new(big.Int).SetBytes(buf).String()),
	}
}
