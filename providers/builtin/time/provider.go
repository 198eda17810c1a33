package time

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in time provider.
type Provider struct {
	kit.Base
	// now is the clock; tests replace it.
	now func() time.Time
}

var _ providers.Interface = (*Provider)(nil)

// New starts a time provider.
func New() providers.Interface {
	p := &Provider{now: time.Now}
	staticPlanner := &kit.Planner{Schema: staticSchema}
	sleepPlanner := &kit.Planner{Schema: sleepSchema, InPlace: map[string]bool{"create_duration": true, "destroy_duration": true}}
	offset := &momentPlanner{
		schema:    offsetSchema,
		replacing: []string{"triggers"},
		baseAttr:  "base_rfc3339",
		compute: func(obj cty.Value, base time.Time) (map[string]cty.Value, error) {
			return offsetValues(obj, base), nil
		},
	}
	rotating := &momentPlanner{
		schema:       rotatingSchema,
		replacing:    []string{"rfc3339", "triggers"},
		baseAttr:     "rfc3339",
		compute:      rotatingValues,
		extraReplace: p.rotatedReplace,
	}
	p.Base = kit.Base{
		Name:      "time",
		Config:    providers.Schema{Block: &providers.Block{}},
		Functions: functions,
		Resources: map[string]*kit.Resource{
			"time_static": {
				Schema:   providers.Schema{Block: staticSchema},
				Validate: validateStatic,
				Plan: func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					resp := staticPlanner.Plan(req)
					// A configured moment is known when creating, so
					// every attribute is planned, as in hashicorp/time.
					if req.PriorState.IsNull() && !resp.PlannedState.IsNull() {
						if v := req.Config.GetAttr("rfc3339"); v.IsKnown() && !v.IsNull() {
							if t, err := time.Parse(time.RFC3339, v.AsString()); err == nil && resp.PlannedState.GetAttr("triggers").IsWhollyKnown() {
								resp.PlannedState = staticObject(t, v.AsString(), resp.PlannedState.GetAttr("triggers"))
							}
						}
					}
					return resp
				},
				Apply:  p.applyStatic,
				Import: importStatic,
			},
			"time_sleep": {
				Schema:   providers.Schema{Block: sleepSchema},
				Validate: validateSleep,
				Planner:  sleepPlanner,
				Apply:    p.applySleep,
				Import:   p.importSleep,
			},
			"time_offset": {
				Schema:   providers.Schema{Block: offsetSchema},
				Validate: validateOffset,
				Plan:     offset.plan,
				Apply:    offset.apply(func() time.Time { return p.now() }),
				Import:   importOffset,
			},
			"time_rotating": {
				Schema:   providers.Schema{Block: rotatingSchema},
				Validate: validateRotating,
				Plan:     rotating.plan,
				Apply:    rotating.apply(func() time.Time { return p.now() }),
				Read:     p.readRotating,
				Import:   importRotating,
			},
		},
	}
	return p
}

var triggersAttribute = &providers.Attribute{
	Type: cty.Map(cty.String), Optional: true,
	Description: "Arbitrary values; any change replaces the resource.",
}

func computedNumber(desc string) *providers.Attribute {
	return &providers.Attribute{Type: cty.Number, Computed: true, Description: desc}
}

var staticSchema = &providers.Block{
	Description: "Records a moment in time once, at creation, and keeps it.",
	Attributes: map[string]*providers.Attribute{
		"id": {Type: cty.String, Computed: true, Description: "The moment, in RFC 3339 format."},
		"rfc3339": {Type: cty.String, Optional: true, Computed: true,
			Description: "The moment in RFC 3339 format; the time of creation when unset. A change replaces the resource."},
		"triggers": triggersAttribute,
		"year":     computedNumber("The year of the moment (UTC)."),
		"month":    computedNumber("The month of the moment (UTC), 1-12."),
		"day":      computedNumber("The day of the month of the moment (UTC)."),
		"hour":     computedNumber("The hour of the moment (UTC), 0-23."),
		"minute":   computedNumber("The minute of the moment, 0-59."),
		"second":   computedNumber("The second of the moment, 0-59."),
		"unix":     computedNumber("The moment as seconds since the Unix epoch."),
	},
}

func validateStatic(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	if v, ok := kit.Known(config, "rfc3339"); ok {
		if _, err := time.Parse(time.RFC3339, v.AsString()); err != nil {
			diags = diags.Errorf(cty.GetAttrPath("rfc3339"), "Invalid RFC 3339 timestamp",
				fmt.Sprintf("%q is not a timestamp like 2006-01-02T15:04:05Z: %s.", v.AsString(), err))
		}
	}
	return diags
}

// staticObject describes t in its own zone, as hashicorp/time does: a
// configured "2020-01-01T01:00:00+02:00" has hour 1.
func staticObject(t time.Time, rfc3339 string, triggers cty.Value) cty.Value {
	vals := partsOf(t)
	vals["id"] = cty.StringVal(rfc3339)
	vals["rfc3339"] = cty.StringVal(rfc3339)
	vals["triggers"] = triggers
	return cty.ObjectVal(vals)
}

func (p *Provider) applyStatic(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	planned := req.PlannedState
	if planned.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	if planned.IsWhollyKnown() {
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	var t time.Time
	var text string
	if v := planned.GetAttr("rfc3339"); v.IsKnown() && !v.IsNull() {
		var err error
		if t, err = time.Parse(time.RFC3339, v.AsString()); err != nil {
			var diags providers.Diagnostics
			return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("rfc3339"),
				"Invalid RFC 3339 timestamp", err.Error())}
		}
		text = v.AsString()
	} else {
		t = p.now().UTC().Truncate(time.Second)
		text = t.Format(time.RFC3339)
	}
	return providers.ApplyResourceChangeResponse{NewState: staticObject(t, text, planned.GetAttr("triggers"))}
}

func importStatic(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	t, err := time.Parse(time.RFC3339, req.ID)
	if err != nil {
		return importValueError("Import time static error", "The id that was supplied could not be parsed as RFC3339.", err)
	}
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{
		TypeName: req.TypeName,
		State:    staticObject(t, req.ID, cty.MapValEmpty(cty.String)),
	}}}
}

var sleepSchema = &providers.Block{
	Description: "Waits for a while when created and/or destroyed, so dependent resources see a settled system.",
	Attributes: map[string]*providers.Attribute{
		"id": {Type: cty.String, Computed: true, Description: "The moment of creation, in RFC 3339 format."},
		"create_duration": {Type: cty.String, Optional: true,
			Description: `How long to wait on creation, such as "30s" or "5m".`},
		"destroy_duration": {Type: cty.String, Optional: true,
			Description: `How long to wait on destruction, such as "30s" or "5m".`},
		"triggers": triggersAttribute,
	},
}

// sleepDuration is the duration form hashicorp/time accepts: a number
// with one unit of ms, s, m or h.
var sleepDuration = lazyRegexp(`^[0-9]+(\.[0-9]+)?(ms|s|m|h)$`)

func validateSleep(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	for _, name := range []string{"create_duration", "destroy_duration"} {
		v, ok := kit.Known(config, name)
		if !ok {
			continue
		}
		if !sleepDuration().MatchString(v.AsString()) {
			diags = diags.Errorf(cty.GetAttrPath(name), "Invalid duration",
				fmt.Sprintf("%q is not a duration; write a number immediately followed by ms, s, m or h, such as \"30s\" or \"1.5h\".", v.AsString()))
		}
	}
	c, d := config.GetAttr("create_duration"), config.GetAttr("destroy_duration")
	if c.IsKnown() && c.IsNull() && d.IsKnown() && d.IsNull() {
		diags = diags.Errorf(nil, "Missing argument", "Set at least one of create_duration, destroy_duration.")
	}
	return diags
}

// importSleep takes CREATE_DURATION,DESTROY_DURATION with at least one
// of them given; the id is the time of the import.
func (p *Provider) importSleep(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	parts := strings.Split(req.ID, ",")
	if len(parts) != 2 || parts[0]+parts[1] == "" {
		return importFormatError(req.ID, "CREATEDURATION,DESTROYDURATION where at least one value is non-empty")
	}
	vals := map[string]cty.Value{
		"id":       cty.StringVal(p.now().UTC().Format(time.RFC3339)),
		"triggers": cty.MapValEmpty(cty.String),
	}
	for i, name := range []string{"create_duration", "destroy_duration"} {
		if parts[i] == "" {
			continue
		}
		if _, err := time.ParseDuration(parts[i]); err != nil {
			// Whichever duration it is: hashicorp/time's words.
			return importValueError("Import time sleep error", "The create_duration cannot be parsed", err)
		}
		vals[name] = cty.StringVal(parts[i])
	}
	return imported(req.TypeName, sleepSchema, vals)
}

func (p *Provider) applySleep(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	var diags providers.Diagnostics
	planned := req.PlannedState
	switch {
	case planned.IsNull():
		if err := sleep(ctx, kit.String(req.PriorState, "destroy_duration")); err != nil {
			return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags.Errorf(nil, "Delete time sleep error", err.Error())}
		}
		return providers.ApplyResourceChangeResponse{NewState: planned}
	case !req.PriorState.IsNull():
		// Changing only the durations needs no waiting.
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	if err := sleep(ctx, kit.String(planned, "create_duration")); err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(nil, "Create time sleep error", err.Error())}
	}
	id := cty.StringVal(p.now().UTC().Format(time.RFC3339))
	return providers.ApplyResourceChangeResponse{NewState: kit.FillUnknown(planned, func(string) cty.Value { return id })}
}

func sleep(ctx context.Context, duration string) error {
	if duration == "" {
		return nil
	}
	d, err := time.ParseDuration(duration)
	if err != nil || d <= 0 {
		return err
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		// Worded as hashicorp/time words it.
		return fmt.Errorf("Original Error: %w", ctx.Err())
	}
}

// lazyRegexp compiles expr on first use rather than at process start,
// where every command, even "version", would pay for it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
