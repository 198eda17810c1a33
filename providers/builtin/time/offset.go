package time

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// The output attributes time_offset and time_rotating share with
// time_static: the parts of one moment, in that moment's own zone.
var momentParts = []string{"year", "month", "day", "hour", "minute", "second", "unix"}

func partsOf(t time.Time) map[string]cty.Value {
	return map[string]cty.Value{
		"year":   cty.NumberIntVal(int64(t.Year())),
		"month":  cty.NumberIntVal(int64(t.Month())),
		"day":    cty.NumberIntVal(int64(t.Day())),
		"hour":   cty.NumberIntVal(int64(t.Hour())),
		"minute": cty.NumberIntVal(int64(t.Minute())),
		"second": cty.NumberIntVal(int64(t.Second())),
		"unix":   cty.NumberIntVal(t.Unix()),
	}
}

func withParts(b *providers.Block) *providers.Block {
	for _, name := range momentParts {
		b.Attributes[name] = computedNumber("The " + name + " of the resulting moment.")
	}
	return b
}

// offsetArgs are time_offset's offsets in the order hashicorp/time
// applies them; the order matters where months and days meet.
var offsetArgs = []string{"offset_days", "offset_hours", "offset_minutes", "offset_months", "offset_seconds", "offset_years"}

var offsetSchema = withParts(&providers.Block{
	Description: "A moment at a fixed offset from a base moment, kept until the offsets or base change.",
	Attributes: map[string]*providers.Attribute{
		"base_rfc3339": {Type: cty.String, Optional: true, Computed: true,
			Description: "The base moment in RFC 3339 format; the time of creation when unset."},
		"triggers":       triggersAttribute,
		"offset_years":   {Type: cty.Number, Optional: true, Description: "Years to add to the base."},
		"offset_months":  {Type: cty.Number, Optional: true, Description: "Months to add to the base."},
		"offset_days":    {Type: cty.Number, Optional: true, Description: "Days to add to the base."},
		"offset_hours":   {Type: cty.Number, Optional: true, Description: "Hours to add to the base."},
		"offset_minutes": {Type: cty.Number, Optional: true, Description: "Minutes to add to the base."},
		"offset_seconds": {Type: cty.Number, Optional: true, Description: "Seconds to add to the base."},
		"rfc3339":        {Type: cty.String, Computed: true, Description: "The offset moment in RFC 3339 format."},
		"id":             {Type: cty.String, Computed: true, Description: "The base moment in RFC 3339 format."},
	},
})

// validateTimes checks that the named attributes are RFC 3339 moments
// and the others whole numbers of at least min.
func validateTimes(config cty.Value, timestamps, numbers []string, min int64, oneOf []string) providers.Diagnostics {
	var diags providers.Diagnostics
	for _, name := range timestamps {
		if v, ok := kit.Known(config, name); ok {
			if _, err := time.Parse(time.RFC3339, v.AsString()); err != nil {
				diags = diags.Errorf(cty.GetAttrPath(name), "Invalid RFC 3339 timestamp",
					fmt.Sprintf("%s %q is not a timestamp like 2006-01-02T15:04:05Z: %s.", name, v.AsString(), err))
			}
		}
	}
	for _, name := range numbers {
		if v, ok := kit.Known(config, name); ok {
			if n, isInt := kit.Int(config, name); !isInt || n < min {
				diags = diags.Errorf(cty.GetAttrPath(name), "Invalid "+name,
					fmt.Sprintf("%s must be a whole number of at least %d, not %s.", name, min, v.AsBigFloat().String()))
			}
		}
	}
	for _, name := range oneOf {
		if v := config.GetAttr(name); !v.IsKnown() || !v.IsNull() {
			return diags
		}
	}
	return diags.Errorf(nil, "Missing argument", "Set at least one of "+strings.Join(oneOf, ", ")+".")
}

func validateOffset(config cty.Value) providers.Diagnostics {
	return validateTimes(config, []string{"base_rfc3339"}, offsetArgs, -1<<62, offsetArgs)
}

// offsetValues computes time_offset's outputs from base and the offsets
// in obj, applied one after another like hashicorp/time does.
func offsetValues(obj cty.Value, base time.Time) map[string]cty.Value {
	t := base
	for _, name := range offsetArgs {
		n, _ := kit.Int(obj, name)
		if n == 0 {
			continue
		}
		t = addPeriod(t, name, n)
	}
	vals := partsOf(t)
	vals["base_rfc3339"] = cty.StringVal(base.Format(time.RFC3339))
	vals["rfc3339"] = cty.StringVal(t.Format(time.RFC3339))
	vals["id"] = vals["base_rfc3339"]
	return vals
}

// addPeriod adds n of the unit an argument's name ends in
// (offset_days, rotation_hours, ...) to t.
func addPeriod(t time.Time, name string, n int64) time.Time {
	switch name[strings.LastIndexByte(name, '_')+1:] {
	case "years":
		return t.AddDate(int(n), 0, 0)
	case "months":
		return t.AddDate(0, int(n), 0)
	case "days":
		return t.AddDate(0, 0, int(n))
	case "hours":
		return t.Add(time.Duration(n) * time.Hour)
	case "minutes":
		return t.Add(time.Duration(n) * time.Minute)
	case "seconds":
		return t.Add(time.Duration(n) * time.Second)
	}
	return t
}

func merge(obj cty.Value, vals map[string]cty.Value) cty.Value {
	m := obj.AsValueMap()
	for k, v := range vals {
		m[k] = v
	}
	return cty.ObjectVal(m)
}

// momentPlanner plans time_offset and time_rotating: triggers and the
// replacing arguments replace the resource; other argument changes are
// in-place updates whose outputs are computed at plan time from the
// kept base moment.
type momentPlanner struct {
	schema    *providers.Block
	replacing []string
	// compute gives the outputs for obj at base.
	compute func(obj cty.Value, base time.Time) (map[string]cty.Value, error)
	// baseAttr holds the base moment in state.
	baseAttr string
	// extraReplace may add a replacement reason for an update.
	extraReplace func(prior, planned cty.Value) []cty.Path
}

func (m *momentPlanner) plan(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	proposed := req.ProposedNewState
	if proposed.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: proposed}
	}
	configured := func(name string) bool { return !req.Config.GetAttr(name).IsNull() }
	unknownComputed := func() cty.Value {
		vals := proposed.AsValueMap()
		for name, a := range m.schema.Attributes {
			if a.Computed && !configured(name) {
				vals[name] = cty.UnknownVal(a.Type)
			}
		}
		return cty.ObjectVal(vals)
	}
	prior := req.PriorState
	if prior.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: unknownComputed()}
	}
	var replace []cty.Path
	for _, name := range m.replacing {
		if v := proposed.GetAttr(name); v.IsKnown() && !v.RawEquals(prior.GetAttr(name)) || !v.IsKnown() {
			replace = append(replace, cty.GetAttrPath(name))
		}
	}
	if m.extraReplace != nil {
		replace = append(replace, m.extraReplace(prior, proposed)...)
	}
	if len(replace) > 0 {
		// Replacing: report too every replacing argument the
		// replacement leaves unknown, as the real provider does.
		planned := unknownComputed()
		for _, name := range m.replacing {
			if !planned.GetAttr(name).IsKnown() && proposed.GetAttr(name).IsKnown() {
				replace = append(replace, cty.GetAttrPath(name))
			}
		}
		sort.Slice(replace, func(i, j int) bool {
			return replace[i][0].(cty.GetAttrStep).Name < replace[j][0].(cty.GetAttrStep).Name
		})
		return providers.PlanResourceChangeResponse{PlannedState: planned, RequiresReplace: replace}
	}
	if proposed.RawEquals(prior) {
		return providers.PlanResourceChangeResponse{PlannedState: prior}
	}
	// An in-place update: the outputs are recomputed from the kept base,
	// at plan time when every argument is known.
	vals := proposed.AsValueMap()
	for name, a := range m.schema.Attributes {
		if a.Computed && !configured(name) && name != m.baseAttr {
			vals[name] = cty.UnknownVal(a.Type)
		}
	}
	planned := cty.ObjectVal(vals)
	base := proposed.GetAttr(m.baseAttr)
	if !base.IsKnown() || !req.Config.IsWhollyKnown() {
		return providers.PlanResourceChangeResponse{PlannedState: planned}
	}
	var diags providers.Diagnostics
	t, err := time.Parse(time.RFC3339, base.AsString())
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath(m.baseAttr), "Invalid RFC 3339 timestamp", err.Error())}
	}
	computed, err := m.compute(planned, t)
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags.Errorf(nil, "Cannot compute the moment", err.Error())}
	}
	for name := range computed {
		if configured(name) {
			delete(computed, name)
		}
	}
	return providers.PlanResourceChangeResponse{PlannedState: merge(planned, computed)}
}

// apply computes the outputs on create from the configured base or the
// current time; updates were fully computed when planned.
func (m *momentPlanner) apply(now func() time.Time) func(context.Context, providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		planned := req.PlannedState
		if planned.IsNull() || planned.IsWhollyKnown() {
			return providers.ApplyResourceChangeResponse{NewState: planned}
		}
		var diags providers.Diagnostics
		base := now().UTC().Truncate(time.Second)
		if v := planned.GetAttr(m.baseAttr); v.IsKnown() && !v.IsNull() {
			var err error
			if base, err = time.Parse(time.RFC3339, v.AsString()); err != nil {
				return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath(m.baseAttr), "Invalid RFC 3339 timestamp", err.Error())}
			}
		} else if v := req.PriorState; !v.IsNull() {
			if b, err := time.Parse(time.RFC3339, kit.String(v, m.baseAttr)); err == nil {
				base = b
			}
		}
		vals, err := m.compute(planned, base)
		if err != nil {
			return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(nil, "Cannot compute the moment", err.Error())}
		}
		// A configured base keeps its text; only unknowns are filled.
		return providers.ApplyResourceChangeResponse{NewState: kit.FillUnknown(planned, func(name string) cty.Value { return vals[name] })}
	}
}

// parseOffsets reads the comma-separated whole numbers of an import ID
// into the named attributes; empty parts stay null. On a part that is
// not a whole number it returns that part's attribute name and an error
// worded as hashicorp/time words it (what says what the numbers are).
func parseOffsets(parts, names []string, what string, vals map[string]cty.Value) (string, error) {
	for i, name := range names {
		if parts[i] == "" {
			vals[name] = cty.NullVal(cty.Number)
			continue
		}
		n, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return name, fmt.Errorf("could not parse %s (%q) as int: %w", what, parts[i], err)
		}
		vals[name] = cty.NumberIntVal(n)
	}
	return "", nil
}

// The import errors are worded as hashicorp/time v0.14.2 words them, so
// that switching between the built-in and the real plugin changes no
// message a user or a script has seen.

// importFormatError refuses an ID without the expected parts.
func importFormatError(id, expected string) providers.ImportResourceStateResponse {
	var diags providers.Diagnostics
	return providers.ImportResourceStateResponse{Diagnostics: diags.Errorf(nil, "Unexpected Format of ID",
		fmt.Sprintf("Unexpected format of ID (%q), expected %s", id, expected))}
}

// importValueError refuses an ID whose parts are there but one does not
// parse.
func importValueError(summary, detail string, err error) providers.ImportResourceStateResponse {
	var diags providers.Diagnostics
	return providers.ImportResourceStateResponse{Diagnostics: diags.Errorf(nil, summary, detail+"\n\n+Original Error: "+err.Error())}
}

func imported(typeName string, schema *providers.Block, vals map[string]cty.Value) providers.ImportResourceStateResponse {
	obj := map[string]cty.Value{}
	for name, a := range schema.Attributes {
		if v, ok := vals[name]; ok {
			obj[name] = v
		} else {
			obj[name] = cty.NullVal(a.Type)
		}
	}
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{TypeName: typeName, State: cty.ObjectVal(obj)}}}
}

// importOffset takes BASE,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS with at
// least one offset given.
func importOffset(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	const format = "BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS"
	parts := strings.Split(req.ID, ",")
	if len(parts) != 7 {
		return importFormatError(req.ID, format)
	}
	if parts[0] == "" || strings.Join(parts[1:], "") == "" {
		return importFormatError(req.ID, format+" where at least one offset value is non-empty")
	}
	vals := map[string]cty.Value{}
	if name, err := parseOffsets(parts[1:], []string{"offset_years", "offset_months", "offset_days", "offset_hours", "offset_minutes", "offset_seconds"}, "offset", vals); err != nil {
		return importValueError("Import time offset error", fmt.Sprintf("The %s parameter that was supplied could not be parsed as Int64.", name), err)
	}
	base, err := time.Parse(time.RFC3339, parts[0])
	if err != nil {
		return importValueError("Create time offset error", "The base_rfc3339 timestamp that was supplied could not be parsed as RFC3339.", err)
	}
	obj := cty.ObjectVal(vals)
	for k, v := range offsetValues(obj, base) {
		vals[k] = v
	}
	vals["triggers"] = cty.MapValEmpty(cty.String)
	return imported(req.TypeName, offsetSchema, vals)
}
