package time

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// rotationArgs are time_rotating's periods in the order hashicorp/time
// looks at them: when several are set, the last one set wins, each
// counted from the base (they do not add up).
var rotationArgs = []string{"rotation_days", "rotation_hours", "rotation_minutes", "rotation_months", "rotation_rfc3339", "rotation_years"}

var rotatingSchema = withParts(&providers.Block{
	Description: "A base moment that is replaced once its rotation moment has passed.",
	Attributes: map[string]*providers.Attribute{
		"rfc3339": {Type: cty.String, Optional: true, Computed: true,
			Description: "The base moment in RFC 3339 format; the time of creation when unset. A change replaces the resource."},
		"triggers":         triggersAttribute,
		"rotation_years":   {Type: cty.Number, Optional: true, Description: "Rotate this many years after the base."},
		"rotation_months":  {Type: cty.Number, Optional: true, Description: "Rotate this many months after the base."},
		"rotation_days":    {Type: cty.Number, Optional: true, Description: "Rotate this many days after the base."},
		"rotation_hours":   {Type: cty.Number, Optional: true, Description: "Rotate this many hours after the base."},
		"rotation_minutes": {Type: cty.Number, Optional: true, Description: "Rotate this many minutes after the base."},
		"rotation_rfc3339": {Type: cty.String, Optional: true, Computed: true,
			Description: "The rotation moment in RFC 3339 format; computed from the rotation_* periods when unset."},
		"id": {Type: cty.String, Computed: true, Description: "The base moment in RFC 3339 format."},
	},
})

func validateRotating(config cty.Value) providers.Diagnostics {
	numbers := []string{"rotation_days", "rotation_hours", "rotation_minutes", "rotation_months", "rotation_years"}
	return validateTimes(config, []string{"rfc3339", "rotation_rfc3339"}, numbers, 1, rotationArgs)
}

// rotatingValues computes the outputs; year to unix describe the
// rotation moment, rfc3339 and id the base.
func rotatingValues(obj cty.Value, base time.Time) (map[string]cty.Value, error) {
	var rot time.Time
	for _, name := range rotationArgs {
		if name == "rotation_rfc3339" {
			if s := kit.String(obj, name); s != "" && obj.GetAttr(name).IsKnown() {
				t, err := time.Parse(time.RFC3339, s)
				if err != nil {
					return nil, fmt.Errorf("rotation_rfc3339: %w", err)
				}
				rot = t
			}
			continue
		}
		n, _ := kit.Int(obj, name)
		if n == 0 {
			continue
		}
		rot = addPeriod(base, name, n)
	}
	vals := partsOf(rot)
	vals["rotation_rfc3339"] = cty.StringVal(rot.Format(time.RFC3339))
	vals["rfc3339"] = cty.StringVal(base.Format(time.RFC3339))
	vals["id"] = vals["rfc3339"]
	return vals, nil
}

// readRotating reports the object gone once its rotation moment has
// passed, so the next plan creates a new one.
func (p *Provider) readRotating(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	prior := req.PriorState
	if s := kit.String(prior, "rotation_rfc3339"); s != "" {
		rot, err := time.Parse(time.RFC3339, s)
		if err != nil {
			var diags providers.Diagnostics
			return providers.ReadResourceResponse{NewState: prior, Diagnostics: diags.Errorf(cty.GetAttrPath("rotation_rfc3339"),
				"Invalid stored rotation moment", fmt.Sprintf("%q is not RFC 3339: %s. Fix or remove the object in the state.", s, err))}
		}
		if p.now().UTC().After(rot) {
			return providers.ReadResourceResponse{NewState: cty.NullVal(prior.Type())}
		}
	}
	return providers.ReadResourceResponse{NewState: prior, Private: req.Private}
}

// rotatedReplace replaces the object when a configured rotation_rfc3339
// changes after the stored rotation moment has passed.
func (p *Provider) rotatedReplace(prior, planned cty.Value) []cty.Path {
	v := planned.GetAttr("rotation_rfc3339")
	if !v.IsKnown() || v.RawEquals(prior.GetAttr("rotation_rfc3339")) {
		return nil
	}
	rot, err := time.Parse(time.RFC3339, kit.String(prior, "rotation_rfc3339"))
	if err != nil || p.now().UTC().After(rot) {
		return []cty.Path{cty.GetAttrPath("rotation_rfc3339")}
	}
	return nil
}

// importRotating takes BASE,ROTATION (two RFC 3339 moments) or
// BASE,YEARS,MONTHS,DAYS,HOURS,MINUTES with at least one period.
func importRotating(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	const (
		summary  = "Import time rotating error"
		moments  = "BASETIMESTAMP,ROTATIONTIMESTAMP"
		periods  = "BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES"
		badValue = "The parameter that was supplied could not be parsed."
	)
	parts := strings.Split(req.ID, ",")
	vals := map[string]cty.Value{"triggers": cty.MapValEmpty(cty.String)}
	var base time.Time
	switch len(parts) {
	case 2:
		if parts[0] == "" || parts[1] == "" {
			return importFormatError(req.ID, moments)
		}
		for i, p := range parts {
			t, err := time.Parse(time.RFC3339, p)
			if err != nil {
				return importValueError(summary, "The timestamp that was supplied could not be parsed as RFC3339.", err)
			}
			if i == 0 {
				base = t
			}
		}
		vals["rotation_rfc3339"] = cty.StringVal(parts[1])
	case 6:
		if parts[0] == "" || strings.Join(parts[1:], "") == "" {
			return importFormatError(req.ID, periods+" where at least one rotation value is non-empty")
		}
		if _, err := parseOffsets(parts[1:], []string{"rotation_years", "rotation_months", "rotation_days", "rotation_hours", "rotation_minutes"}, "rotation", vals); err != nil {
			return importValueError(summary, badValue, err)
		}
		var err error
		if base, err = time.Parse(time.RFC3339, parts[0]); err != nil {
			return importValueError(summary, badValue, err)
		}
		vals["rotation_rfc3339"] = cty.NullVal(cty.String)
	default:
		return importFormatError(req.ID, periods+" or "+moments)
	}
	obj := map[string]cty.Value{}
	for _, name := range rotationArgs {
		if v, ok := vals[name]; ok {
			obj[name] = v
		} else if name == "rotation_rfc3339" {
			obj[name] = cty.NullVal(cty.String)
		} else {
			obj[name] = cty.NullVal(cty.Number)
		}
	}
	computed, err := rotatingValues(cty.ObjectVal(obj), base)
	if err != nil {
		return importValueError(summary, badValue, err)
	}
	for k, v := range computed {
		vals[k] = v
	}
	return imported(req.TypeName, rotatingSchema, vals)
}
