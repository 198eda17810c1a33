package time

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// The wants match what the real hashicorp/time v0.14.2 plugin returned
// through tenet for the same timestamps.
func TestRFC3339Parse(t *testing.T) {
	n := func(i int64) cty.Value { return cty.NumberIntVal(i) }
	tests := []struct {
		name      string
		timestamp string
		want      map[string]cty.Value
		wantErr   string
	}{
		// The parts are those of the timestamp's own offset.
		{"offset", "2023-07-25T23:43:16-05:00", map[string]cty.Value{
			"year": n(2023), "year_day": n(206), "day": n(25), "month": n(7), "month_name": cty.StringVal("July"),
			"weekday": n(2), "weekday_name": cty.StringVal("Tuesday"), "hour": n(23), "minute": n(43), "second": n(16),
			"unix": n(1690346596), "iso_year": n(2023), "iso_week": n(30),
		}, ""},
		{"utc, ISO week of the previous year", "2021-01-01T00:00:00Z", map[string]cty.Value{
			"year": n(2021), "year_day": n(1), "day": n(1), "month": n(1), "month_name": cty.StringVal("January"),
			"weekday": n(5), "weekday_name": cty.StringVal("Friday"), "hour": n(0), "minute": n(0), "second": n(0),
			"unix": n(1609459200), "iso_year": n(2020), "iso_week": n(53),
		}, ""},
		{"not a timestamp", "2023-07-25", nil, `Error parsing RFC3339 timestamp: "2023-07-25" is not a valid RFC3339 timestamp`},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := p.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "rfc3339_parse", Arguments: []cty.Value{cty.StringVal(tt.timestamp)}})
			if tt.wantErr != "" {
				if resp.Err == nil || resp.Err.Text != tt.wantErr || resp.Err.Argument == nil || *resp.Err.Argument != 0 {
					t.Fatalf("error = %#v, want %q blaming argument 0", resp.Err, tt.wantErr)
				}
				return
			}
			if resp.Err != nil {
				t.Fatal(resp.Err)
			}
			if diff := cmp.Diff(cty.ObjectVal(tt.want).GoString(), resp.Result.GoString()); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// The wants were recorded from the real hashicorp/time v0.14.2 plugin run
// by tenet (output -json), errors included.
func TestDurationAndUnixParse(t *testing.T) {
	n := func(i int64) cty.Value { return cty.NumberIntVal(i) }
	f := cty.NumberFloatVal
	tests := []struct {
		name    string
		fn      string
		arg     cty.Value
		want    map[string]cty.Value
		wantErr string
	}{
		{"duration", "duration_parse", cty.StringVal("1h30m10.5s"), map[string]cty.Value{
			"hours": f(1.5029166666666667), "minutes": f(90.175), "seconds": f(5410.5),
			"milliseconds": n(5410500), "microseconds": n(5410500000), "nanoseconds": n(5410500000000),
		}, ""},
		{"negative duration, truncated units", "duration_parse", cty.StringVal("-1.5us"), map[string]cty.Value{
			"hours": f(-4.166666666666667e-10), "minutes": f(-2.5e-08), "seconds": f(-1.5e-06),
			"milliseconds": n(0), "microseconds": n(-1), "nanoseconds": n(-1500),
		}, ""},
		{"bad duration", "duration_parse", cty.StringVal("1x"), nil, `Error parsing duration string: "1x" is not a valid duration string`},
		{"before the epoch", "unix_timestamp_parse", n(-1), map[string]cty.Value{
			"year": n(1969), "year_day": n(365), "day": n(31), "month": n(12), "month_name": cty.StringVal("December"),
			"weekday": n(3), "weekday_name": cty.StringVal("Wednesday"), "hour": n(23), "minute": n(59), "second": n(59),
			"rfc3339": cty.StringVal("1969-12-31T23:59:59Z"), "iso_year": n(1970), "iso_week": n(1),
		}, ""},
		{"fraction", "unix_timestamp_parse", f(1.5), nil, "Unable to Convert Function ArgumentAn unexpected error was encountered when converting the function argument from the protocol type. Please report this to the provider developer:\n\nUnable to convert tftypes to framework type at position 0: Value %!s(*big.Float=1.5) is not an integer."},
		{"too large", "unix_timestamp_parse", cty.MustParseNumberVal("1e20"), nil, "Unable to Convert Function ArgumentAn unexpected error was encountered when converting the function argument from the protocol type. Please report this to the provider developer:\n\nUnable to convert tftypes to framework type at position 0: Value %!s(*big.Float=1e+20) cannot be represented as a 64-bit integer."},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := p.CallFunction(context.Background(), providers.CallFunctionRequest{Name: tt.fn, Arguments: []cty.Value{tt.arg}})
			if tt.wantErr != "" {
				if resp.Err == nil || resp.Err.Argument == nil || *resp.Err.Argument != 0 {
					t.Fatalf("error = %#v, want one blaming argument 0", resp.Err)
				}
				if diff := cmp.Diff(tt.wantErr, resp.Err.Text); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if resp.Err != nil {
				t.Fatal(resp.Err)
			}
			if diff := cmp.Diff(cty.ObjectVal(tt.want).GoString(), resp.Result.GoString()); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}
