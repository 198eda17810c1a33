package random

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

var uuidSchema = &providers.Block{
	Description: "A random UUID-formatted string.",
	Attributes: map[string]*providers.Attribute{
		"keepers": keepersAttribute,
		"result":  {Type: cty.String, Computed: true, Description: "The generated UUID, 36 lower-case characters."},
		"id":      {Type: cty.String, Computed: true, Description: "The generated UUID."},
	},
}

// formatUUID writes 16 bytes in the 8-4-4-4-12 hexadecimal form.
func formatUUID(b []byte) string {
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// applyUUID formats 16 random bytes as hashicorp/random does: all 128
// bits random, no version or variant bits set.
func applyUUID(planned cty.Value) (cty.Value, providers.Diagnostics) {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		return cty.NilVal, randomFailed(err)
	}
	u := cty.StringVal(formatUUID(buf))
	return withValues(planned, map[string]cty.Value{"result": u, "id": u}), nil
}

// importUUID takes the UUID itself, in upper or lower case.
func importUUID(id string) (map[string]cty.Value, providers.Diagnostics) {
	buf, err := parseUUID(id)
	if err != nil {
		return nil, importError("Invalid random_uuid import ID", fmt.Sprintf("%q is not a UUID: %s.", id, err))
	}
	u := cty.StringVal(formatUUID(buf))
	return map[string]cty.Value{"result": u, "id": u}, nil
}

func parseUUID(s string) ([]byte, error) {
	if len(s) != 36 {
		return nil, fmt.Errorf("it has %d characters, not 36", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, fmt.Errorf("its dashes are not at positions 9, 14, 19 and 24")
	}
	buf, err := hex.DecodeString(s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36])
	if err != nil {
		return nil, fmt.Errorf("it has a character that is not hexadecimal")
	}
	return buf, nil
}
