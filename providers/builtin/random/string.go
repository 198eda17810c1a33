package random

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

const (
	lowerChars   = "abcdefghijklmnopqrstuvwxyz"
	upperChars   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	numericChars = "0123456789"
	specialChars = "!@#$%&*()-_=+[]{}<>:?"
)

var stringDefaults = map[string]cty.Value{
	"special": cty.True, "upper": cty.True, "lower": cty.True, "numeric": cty.True, "number": cty.True,
	"min_special": cty.Zero, "min_upper": cty.Zero, "min_lower": cty.Zero, "min_numeric": cty.Zero,
}

func stringSchema(password bool) *providers.Block {
	what := "string"
	if password {
		what = "password"
	}
	flag := func(desc string) *providers.Attribute {
		return &providers.Attribute{Type: cty.Bool, Optional: true, Computed: true, Description: desc}
	}
	minimum := func(desc string) *providers.Attribute {
		return &providers.Attribute{Type: cty.Number, Optional: true, Computed: true, Description: desc}
	}
	b := &providers.Block{
		Description: fmt.Sprintf("A random %s of chosen length and character classes.", what),
		Attributes: map[string]*providers.Attribute{
			"keepers":          keepersAttribute,
			"length":           {Type: cty.Number, Required: true, Description: "How many characters; at least the sum of the min_* arguments."},
			"special":          flag("Whether to use special characters (default true)."),
			"upper":            flag("Whether to use upper-case letters (default true)."),
			"lower":            flag("Whether to use lower-case letters (default true)."),
			"numeric":          flag("Whether to use digits (default true)."),
			"number":           {Type: cty.Bool, Optional: true, Computed: true, Deprecated: true, Description: "Deprecated: use numeric. Whether to use digits (default true)."},
			"min_special":      minimum("The least number of special characters (default 0)."),
			"min_upper":        minimum("The least number of upper-case letters (default 0)."),
			"min_lower":        minimum("The least number of lower-case letters (default 0)."),
			"min_numeric":      minimum("The least number of digits (default 0)."),
			"override_special": {Type: cty.String, Optional: true, Description: "The special characters to use instead of the default set."},
			"result":           {Type: cty.String, Computed: true, Sensitive: password, Description: fmt.Sprintf("The generated %s.", what)},
			"id":               {Type: cty.String, Computed: true, Description: "The identifier of the resource."},
		},
	}
	if password {
		b.Attributes["bcrypt_hash"] = &providers.Attribute{Type: cty.String, Computed: true, Sensitive: true,
			Description: "A bcrypt hash of the password."}
	}
	return b
}

var minimumArgs = []string{"min_special", "min_upper", "min_lower", "min_numeric"}

func validateString(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	var mins int64
	for _, name := range minimumArgs {
		if v, ok := kit.Known(config, name); ok {
			n, isInt := kit.Int(config, name)
			if !isInt || n < 0 {
				diags = diags.Errorf(cty.GetAttrPath(name), "Invalid "+name,
					fmt.Sprintf("%s must be a whole number of at least 0, not %s.", name, v.AsBigFloat().String()))
				continue
			}
			mins += n
		}
	}
	if v, ok := kit.Known(config, "length"); ok {
		n, isInt := kit.Int(config, "length")
		switch {
		case !isInt || n < 1:
			diags = diags.Errorf(cty.GetAttrPath("length"), "Invalid length",
				fmt.Sprintf("length must be a whole number of at least 1, not %s.", v.AsBigFloat().String()))
		case n < mins:
			diags = diags.Errorf(cty.GetAttrPath("length"), "Length too short",
				fmt.Sprintf("length (%d) is less than the sum of the min_* arguments (%d). Raise length or lower the minimums.", n, mins))
		}
	}
	allKnown := true
	anyClass := false
	for _, name := range []string{"special", "upper", "lower", "numeric"} {
		v := config.GetAttr(name)
		if !v.IsKnown() {
			allKnown = false
			continue
		}
		if v.IsNull() || v.True() {
			anyClass = true
		}
	}
	number, numeric := config.GetAttr("number"), config.GetAttr("numeric")
	if number.IsKnown() && numeric.IsKnown() && !number.IsNull() && !numeric.IsNull() && number.True() != numeric.True() {
		diags = diags.Errorf(cty.GetAttrPath("number"), "Conflicting number and numeric",
			"number is a deprecated name for numeric, and the two are set differently. Remove number and keep numeric.")
	}
	if allKnown && !anyClass {
		diags = diags.Errorf(cty.GetAttrPath("length"), "No characters to choose from",
			"special, upper, lower and numeric are all false. Enable at least one character class.")
	}
	return diags
}

func applyString(password bool) generator {
	return func(planned cty.Value) (cty.Value, providers.Diagnostics) {
		result, err := randomString(planned)
		if err != nil {
			return cty.NilVal, randomFailed(err)
		}
		vals := map[string]cty.Value{"result": cty.StringVal(result), "id": cty.StringVal(result)}
		if password {
			vals["id"] = cty.StringVal("none")
			hash, err := bcrypt.GenerateFromPassword([]byte(result), bcrypt.DefaultCost)
			if err != nil {
				var diags providers.Diagnostics
				return cty.NilVal, diags.Errorf(nil, "Cannot hash the password", err.Error())
			}
			vals["bcrypt_hash"] = cty.StringVal(string(hash))
		}
		return withValues(planned, vals), nil
	}
}

// randomString draws the required minimum from each class, fills up from
// all enabled classes, then shuffles so the minimums are not in front.
func randomString(planned cty.Value) (string, error) {
	length, _ := kit.Int(planned, "length")
	// As in hashicorp/random, an empty override_special means the
	// default set, and each min_* is drawn from its class even when the
	// class is otherwise disabled.
	special := specialChars
	if s := kit.String(planned, "override_special"); s != "" {
		special = s
	}
	classes := []struct {
		enabled bool
		chars   string
		min     string
	}{
		{kit.Bool(planned, "lower", true), lowerChars, "min_lower"},
		{kit.Bool(planned, "upper", true), upperChars, "min_upper"},
		{kit.Bool(planned, "numeric", true) && kit.Bool(planned, "number", true), numericChars, "min_numeric"},
		{kit.Bool(planned, "special", true), special, "min_special"},
	}
	var out []byte
	all := ""
	for _, c := range classes {
		if c.enabled {
			all += c.chars
		}
		n, _ := kit.Int(planned, c.min)
		for i := int64(0); i < n; i++ {
			ch, err := pick(c.chars)
			if err != nil {
				return "", err
			}
			out = append(out, ch)
		}
	}
	if all == "" {
		return "", fmt.Errorf("no character class is enabled")
	}
	for int64(len(out)) < length {
		ch, err := pick(all)
		if err != nil {
			return "", err
		}
		out = append(out, ch)
	}
	for i := len(out) - 1; i > 0; i-- {
		j, err := randIntn(i + 1)
		if err != nil {
			return "", err
		}
		out[i], out[j] = out[j], out[i]
	}
	return string(out), nil
}

func pick(chars string) (byte, error) {
	i, err := randIntn(len(chars))
	if err != nil {
		return 0, err
	}
	return chars[i], nil
}

func randIntn(n int) (int, error) {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0, err
	}
	return int(v.Int64()), nil
}

// syncNumber keeps the deprecated number and its replacement numeric
// equal, as hashicorp/random does: the one left unset in configuration
// takes the other's value (both default to true).
func syncNumber(r *kit.Resource) *kit.Resource {
	plan := r.Plan
	r.Plan = func(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		if !req.Config.IsNull() && !req.ProposedNewState.IsNull() {
			number, numeric := req.Config.GetAttr("number"), req.Config.GetAttr("numeric")
			switch {
			case number.IsNull() && !numeric.IsNull():
				req.Config = withValues(req.Config, map[string]cty.Value{"number": numeric})
				req.ProposedNewState = withValues(req.ProposedNewState, map[string]cty.Value{"number": numeric})
			case numeric.IsNull() && !number.IsNull():
				req.Config = withValues(req.Config, map[string]cty.Value{"numeric": number})
				req.ProposedNewState = withValues(req.ProposedNewState, map[string]cty.Value{"numeric": number})
			}
		}
		return plan(ctx, req)
	}
	return r
}
