package time

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

var ctyCmp = cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })

func pick(v cty.Value, names ...string) map[string]cty.Value {
	out := map[string]cty.Value{}
	for _, n := range names {
		out[n] = v.GetAttr(n)
	}
	return out
}

func TestTimeOffset(t *testing.T) {
	tests := []struct {
		name, config string
		want         map[string]cty.Value
	}{
		{"now plus a day", "offset_days = 1", map[string]cty.Value{
			"base_rfc3339": cty.StringVal("2026-11-21T10:16:21Z"), "id": cty.StringVal("2026-11-21T10:16:21Z"),
			"rfc3339": cty.StringVal("2026-11-22T10:16:21Z"), "day": cty.NumberIntVal(22), "unix": cty.NumberIntVal(1795256181 + 86400),
		}},
		// Days are added before months, as in hashicorp/time: Jan 31 + 1
		// day = Feb 1, + 1 month = Mar 1.
		{"days before months", "base_rfc3339 = \"2021-01-31T00:00:00Z\"\noffset_months = 1\noffset_days = 1\noffset_seconds = -1", map[string]cty.Value{
			"base_rfc3339": cty.StringVal("2021-01-31T00:00:00Z"), "rfc3339": cty.StringVal("2021-02-28T23:59:59Z"),
			"month": cty.NumberIntVal(2), "day": cty.NumberIntVal(28), "second": cty.NumberIntVal(59),
		}},
		{"zone kept", "base_rfc3339 = \"2021-06-01T12:00:00+02:00\"\noffset_hours = 13", map[string]cty.Value{
			"rfc3339": cty.StringVal("2021-06-02T01:00:00+02:00"), "hour": cty.NumberIntVal(1), "day": cty.NumberIntVal(2),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New().(*Provider)
			p.now = fixedClock()
			h := kittest.New(t, p, t.TempDir())
			config := h.Config("time_offset", tt.config)
			plan := h.Plan("time_offset", cty.NilVal, config)
			if plan.PlannedState.GetAttr("rfc3339").IsKnown() {
				t.Errorf("rfc3339 should be unknown until apply")
			}
			got := h.Apply("time_offset", cty.NilVal, plan.PlannedState, config)
			var names []string
			for n := range tt.want {
				names = append(names, n)
			}
			if diff := cmp.Diff(tt.want, pick(got, names...), ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			h.AssertNoOp("time_offset", got, config)
		})
	}
}

func TestTimeOffsetUpdate(t *testing.T) {
	p := New().(*Provider)
	p.now = fixedClock()
	h := kittest.New(t, p, t.TempDir())
	created := h.Create("time_offset", h.Config("time_offset", "offset_days = 1\ntriggers = { a = \"1\" }"))

	// An offset change is an in-place update computed at plan time from
	// the kept base.
	changed := h.Config("time_offset", "offset_days = 2\ntriggers = { a = \"1\" }")
	plan := h.Plan("time_offset", created, changed)
	if len(plan.RequiresReplace) > 0 {
		t.Errorf("offset change replaces: %v", plan.RequiresReplace)
	}
	want := map[string]cty.Value{
		"base_rfc3339": cty.StringVal("2026-11-21T10:16:21Z"), "rfc3339": cty.StringVal("2026-11-23T10:16:21Z"), "day": cty.NumberIntVal(23),
	}
	if diff := cmp.Diff(want, pick(plan.PlannedState, "base_rfc3339", "rfc3339", "day"), ctyCmp); diff != "" {
		t.Errorf("planned (-want +got):\n%s", diff)
	}
	updated := h.Apply("time_offset", created, plan.PlannedState, changed)
	h.AssertNoOp("time_offset", updated, changed)

	replace := h.Plan("time_offset", updated, h.Config("time_offset", "offset_days = 2\ntriggers = { a = \"2\" }"))
	if diff := cmp.Diff([]string{"triggers"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}
	if replace.PlannedState.GetAttr("base_rfc3339").IsKnown() {
		t.Errorf("a replacement takes a new base")
	}
}

func TestTimeRotating(t *testing.T) {
	p := New().(*Provider)
	p.now = fixedClock()
	h := kittest.New(t, p, t.TempDir())
	config := h.Config("time_rotating", "rotation_days = 30")
	created := h.Create("time_rotating", config)
	want := map[string]cty.Value{
		"rfc3339": cty.StringVal("2026-11-21T10:16:21Z"), "id": cty.StringVal("2026-11-21T10:16:21Z"),
		"rotation_rfc3339": cty.StringVal("2026-12-21T10:16:21Z"), "month": cty.NumberIntVal(12), "day": cty.NumberIntVal(21),
	}
	if diff := cmp.Diff(want, pick(created, "rfc3339", "id", "rotation_rfc3339", "month", "day"), ctyCmp); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	h.AssertNoOp("time_rotating", created, config)

	// A period change is in place and counted from the same base; the
	// later-listed period wins rather than adding up.
	changed := h.Config("time_rotating", "rotation_days = 30\nrotation_years = 1")
	plan := h.Plan("time_rotating", created, changed)
	if len(plan.RequiresReplace) > 0 || !plan.PlannedState.GetAttr("rotation_rfc3339").RawEquals(cty.StringVal("2027-11-21T10:16:21Z")) {
		t.Errorf("planned %#v, replace %v", plan.PlannedState.GetAttr("rotation_rfc3339"), plan.RequiresReplace)
	}

	// Before the rotation moment the object stays; after it, it is gone.
	if got := h.Read("time_rotating", created); !got.RawEquals(created) {
		t.Errorf("read before rotation changed the object: %#v", got)
	}
	p.now = func() time.Time { return time.Date(2026, 12, 21, 10, 16, 22, 0, time.UTC) }
	if got := h.Read("time_rotating", created); !got.IsNull() {
		t.Errorf("read after rotation should remove the object, got %#v", got)
	}

	replace := h.Plan("time_rotating", created, h.Config("time_rotating", "rotation_days = 30\nrfc3339 = \"2020-01-01T00:00:00Z\""))
	if diff := cmp.Diff([]string{"rfc3339"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}
}

func TestTimeValidate(t *testing.T) {
	tests := []struct{ typ, config, wantSummary, wantPath string }{
		{"time_offset", `triggers = {}`, "Missing argument", ""},
		{"time_offset", "offset_days = 1.5", "Invalid offset_days", "offset_days"},
		{"time_offset", "offset_days = 1\nbase_rfc3339 = \"soon\"", "Invalid RFC 3339 timestamp", "base_rfc3339"},
		{"time_rotating", `triggers = {}`, "Missing argument", ""},
		{"time_rotating", "rotation_days = 0", "Invalid rotation_days", "rotation_days"},
		{"time_rotating", `rotation_rfc3339 = "later"`, "Invalid RFC 3339 timestamp", "rotation_rfc3339"},
		// As hashicorp/time's time_sleep.
		{"time_sleep", `triggers = { a = "1" }`, "Missing argument", ""},
		{"time_sleep", `create_duration = "1d"`, "Invalid duration", "create_duration"},
		{"time_sleep", `create_duration = "1m30s"`, "Invalid duration", "create_duration"},
		{"time_sleep", `destroy_duration = "-1s"`, "Invalid duration", "destroy_duration"},
	}
	h := kittest.New(t, New(), t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.config, func(t *testing.T) {
			kittest.WantOne(t, h.Validate(tt.typ, h.Config(tt.typ, tt.config)), tt.wantSummary, tt.wantPath)
		})
	}
}

func TestTimeImport(t *testing.T) {
	tests := []struct {
		typ, id string
		want    map[string]cty.Value
		// wantErr is "summary: detail", as hashicorp/time v0.14.2 words
		// the error (recorded from the real plugin).
		wantErr string
	}{
		{typ: "time_offset", id: "2020-01-01T00:00:00Z,,,1,2,,", want: map[string]cty.Value{
			"base_rfc3339": cty.StringVal("2020-01-01T00:00:00Z"), "rfc3339": cty.StringVal("2020-01-02T02:00:00Z"),
			"offset_days": cty.NumberIntVal(1), "offset_hours": cty.NumberIntVal(2), "offset_years": cty.NullVal(cty.Number),
			"triggers": cty.MapValEmpty(cty.String),
		}},
		{typ: "time_offset", id: "2020-01-01T00:00:00Z,,,,,,", wantErr: `Unexpected Format of ID: Unexpected format of ID ("2020-01-01T00:00:00Z,,,,,,"), expected BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS where at least one offset value is non-empty`},
		{typ: "time_offset", id: ",1,0,0,0,0,0", wantErr: `Unexpected Format of ID: Unexpected format of ID (",1,0,0,0,0,0"), expected BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS where at least one offset value is non-empty`},
		{typ: "time_offset", id: "2020-01-01T00:00:00Z,1", wantErr: `Unexpected Format of ID: Unexpected format of ID ("2020-01-01T00:00:00Z,1"), expected BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS`},
		{typ: "time_offset", id: "x,1,x,0,0,0,0", wantErr: "Import time offset error: The offset_months parameter that was supplied could not be parsed as Int64.\n\n+Original Error: could not parse offset (\"x\") as int: strconv.ParseInt: parsing \"x\": invalid syntax"},
		{typ: "time_offset", id: "x,0,0,0,0,0,0", wantErr: "Create time offset error: The base_rfc3339 timestamp that was supplied could not be parsed as RFC3339.\n\n+Original Error: parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""},
		{typ: "time_rotating", id: "2020-01-01T00:00:00Z,2021-01-01T00:00:00Z", want: map[string]cty.Value{
			"rfc3339": cty.StringVal("2020-01-01T00:00:00Z"), "rotation_rfc3339": cty.StringVal("2021-01-01T00:00:00Z"),
			"year": cty.NumberIntVal(2021), "rotation_days": cty.NullVal(cty.Number),
		}},
		{typ: "time_rotating", id: "2020-01-01T00:00:00Z,1,,,,", want: map[string]cty.Value{
			"rotation_rfc3339": cty.StringVal("2021-01-01T00:00:00Z"), "rotation_years": cty.NumberIntVal(1),
		}},
		{typ: "time_rotating", id: "2020-01-01T00:00:00Z", wantErr: `Unexpected Format of ID: Unexpected format of ID ("2020-01-01T00:00:00Z"), expected BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES or BASETIMESTAMP,ROTATIONTIMESTAMP`},
		{typ: "time_rotating", id: ",x", wantErr: `Unexpected Format of ID: Unexpected format of ID (",x"), expected BASETIMESTAMP,ROTATIONTIMESTAMP`},
		{typ: "time_rotating", id: ",1,0,0,0,0", wantErr: `Unexpected Format of ID: Unexpected format of ID (",1,0,0,0,0"), expected BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES where at least one rotation value is non-empty`},
		{typ: "time_rotating", id: "x,y", wantErr: "Import time rotating error: The timestamp that was supplied could not be parsed as RFC3339.\n\n+Original Error: parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""},
		{typ: "time_rotating", id: "x,1,x,0,0,0", wantErr: "Import time rotating error: The parameter that was supplied could not be parsed.\n\n+Original Error: could not parse rotation (\"x\") as int: strconv.ParseInt: parsing \"x\": invalid syntax"},
		{typ: "time_rotating", id: "x,0,0,0,0,0", wantErr: "Import time rotating error: The parameter that was supplied could not be parsed.\n\n+Original Error: parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""},
		{typ: "time_static", id: "", wantErr: "Import time static error: The id that was supplied could not be parsed as RFC3339.\n\n+Original Error: parsing time \"\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"2006\""},
		{typ: "time_static", id: "2020-01-01T00:00:00Z", want: map[string]cty.Value{"triggers": cty.MapValEmpty(cty.String)}},
		// time_sleep's ID is create_duration,destroy_duration.
		{typ: "time_sleep", id: "30s,", want: map[string]cty.Value{
			"create_duration": cty.StringVal("30s"), "destroy_duration": cty.NullVal(cty.String),
			"id": cty.StringVal("2026-11-21T10:16:21Z"), "triggers": cty.MapValEmpty(cty.String),
		}},
		{typ: "time_sleep", id: ",1m", want: map[string]cty.Value{
			"create_duration": cty.NullVal(cty.String), "destroy_duration": cty.StringVal("1m"),
			"id": cty.StringVal("2026-11-21T10:16:21Z"), "triggers": cty.MapValEmpty(cty.String),
		}},
		{typ: "time_sleep", id: ",", wantErr: `Unexpected Format of ID: Unexpected format of ID (","), expected CREATEDURATION,DESTROYDURATION where at least one value is non-empty`},
		{typ: "time_sleep", id: "30s", wantErr: `Unexpected Format of ID: Unexpected format of ID ("30s"), expected CREATEDURATION,DESTROYDURATION where at least one value is non-empty`},
		{typ: "time_sleep", id: "soon,", wantErr: "Import time sleep error: The create_duration cannot be parsed\n\n+Original Error: time: invalid duration \"soon\""},
		// The real plugin names create_duration whichever is wrong.
		{typ: "time_sleep", id: "1s,later", wantErr: "Import time sleep error: The create_duration cannot be parsed\n\n+Original Error: time: invalid duration \"later\""},
	}
	p := New().(*Provider)
	p.now = fixedClock()
	h := kittest.New(t, p, t.TempDir())
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.id, func(t *testing.T) {
			got, diags := h.Import(tt.typ, tt.id)
			if tt.wantErr != "" {
				if len(diags) != 1 {
					t.Fatalf("want one error, got %v", diags)
				}
				if diff := cmp.Diff(tt.wantErr, diags[0].Summary+": "+diags[0].Detail); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("import: %v", diags)
			}
			if diff := cmp.Diff(tt.want, pick(got, slices.Collect(maps.Keys(tt.want))...), ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTimeStaticMatchesHashicorpTime(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	// A configured moment is planned in full on create and described in
	// its own zone.
	config := h.Config("time_static", `rfc3339 = "2021-06-01T01:30:00+02:00"`)
	plan := h.Plan("time_static", cty.NilVal, config)
	want := map[string]cty.Value{
		"id": cty.StringVal("2021-06-01T01:30:00+02:00"), "hour": cty.NumberIntVal(1), "day": cty.NumberIntVal(1),
		"unix": cty.NumberIntVal(1622503800),
	}
	if diff := cmp.Diff(want, pick(plan.PlannedState, "id", "hour", "day", "unix"), ctyCmp); diff != "" {
		t.Errorf("planned (-want +got):\n%s", diff)
	}
	got := h.Apply("time_static", cty.NilVal, plan.PlannedState, config)
	if diff := cmp.Diff(want, pick(got, "id", "hour", "day", "unix"), ctyCmp); diff != "" {
		t.Errorf("applied (-want +got):\n%s", diff)
	}
}

// hashicorp/time's time_sleep takes fractional durations; its invalid
// ones are among TestTimeValidate's cases.
func TestTimeSleepFractionalDuration(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	if diags := h.Validate("time_sleep", h.Config("time_sleep", `create_duration = "1.5s"`)); len(diags) > 0 {
		t.Errorf("1.5s should be accepted: %v", diags)
	}
}
