package time

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

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
