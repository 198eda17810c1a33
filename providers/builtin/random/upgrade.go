package random

import (
	"context"
	"encoding/json"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// The schema versions match hashicorp/random's, so a state written by
// either tool reads in the other without an upgrade surprise.
const (
	stringSchemaVersion   = 2
	passwordSchemaVersion = 3
)

func versioned(r *kit.Resource, version int64) *kit.Resource {
	r.Schema.Version = version
	return r
}

// UpgradeResourceState brings random_string and random_password objects
// stored by older schema versions to the current shape; everything else
// goes to the kit's decoder.
//
// Before version 2 the digits flag was called "number" only; "numeric"
// did not exist. Left null after decoding, it would differ from the
// planned default and replace the value, so it takes the old flag's
// value. Before version 3 random_password had no bcrypt_hash; it is
// computed from the stored result.
func (p *Provider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	r := p.Resources[req.TypeName]
	if r == nil || (req.TypeName != "random_string" && req.TypeName != "random_password") || req.Version >= r.Schema.Version {
		return p.Base.UpgradeResourceState(ctx, req)
	}
	var diags providers.Diagnostics
	raw, err := upgradeStringState(req.RawJSON, req.TypeName == "random_password")
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil, "Invalid stored resource state",
			fmt.Sprintf("The stored %s object (schema version %d) could not be upgraded: %s. Fix or remove the object in the state file.", req.TypeName, req.Version, err))}
	}
	v, err := kit.DecodeState(r.Schema.Block, raw)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil, "Invalid stored resource state",
			fmt.Sprintf("The stored %s object does not match its schema after upgrading from version %d: %s. Fix or remove the object in the state file.", req.TypeName, req.Version, err))}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

func upgradeStringState(raw json.RawMessage, password bool) (json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	isNull := func(name string) bool { v, ok := fields[name]; return !ok || string(v) == "null" }
	switch {
	case isNull("numeric") && isNull("number"):
		fields["numeric"], fields["number"] = json.RawMessage("true"), json.RawMessage("true")
	case isNull("numeric"):
		fields["numeric"] = fields["number"]
	case isNull("number"):
		fields["number"] = fields["numeric"]
	}
	// Objects imported by old provider versions lack the arguments;
	// they take their defaults so the next plan keeps the value.
	for _, name := range []string{"special", "upper", "lower"} {
		if isNull(name) {
			fields[name] = json.RawMessage("true")
		}
	}
	for _, name := range minimumArgs {
		if isNull(name) {
			fields[name] = json.RawMessage("0")
		}
	}
	var result string
	if !isNull("result") {
		if err := json.Unmarshal(fields["result"], &result); err != nil {
			return nil, fmt.Errorf("result is not a string: %w", err)
		}
		if isNull("length") {
			fields["length"], _ = json.Marshal(len(result))
		}
	}
	// A stored hash that does not verify (some version 2 objects have
	// one made from another value) is made anew, as hashicorp/random's
	// upgrade to version 3 does.
	if password && !isNull("result") && !isNull("bcrypt_hash") {
		var hash string
		if err := json.Unmarshal(fields["bcrypt_hash"], &hash); err != nil {
			return nil, fmt.Errorf("bcrypt_hash is not a string: %w", err)
		}
		if err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(result)); err != nil {
			delete(fields, "bcrypt_hash")
		}
	}
	if password && isNull("bcrypt_hash") && !isNull("result") {
		hash, err := bcrypt.GenerateFromPassword([]byte(result), bcrypt.DefaultCost)
		if err != nil {
			return nil, fmt.Errorf("hashing the password: %w", err)
		}
		fields["bcrypt_hash"], _ = json.Marshal(string(hash))
	}
	return json.Marshal(fields)
}
