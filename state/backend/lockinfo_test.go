package backend

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseLockInfo(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	tests := []struct {
		name string
		in   string
		want *LockInfo
		err  string
	}{
		{
			name: "OpenTofu's fields",
			in:   `{"ID":"1b2c","Operation":"OperationTypeApply","Info":"","Who":"ann@box","Version":"1.10.6","Created":"2026-01-02T03:04:05.000000006Z","Path":"s3://b/k"}`,
			want: &LockInfo{ID: "1b2c", Operation: "OperationTypeApply", Who: "ann@box", Version: "1.10.6", Created: created, Path: "s3://b/k"},
		},
		{name: "surrounding space", in: " \n{\"ID\":\"x\"}\n", want: &LockInfo{ID: "x"}},
		{name: "no ID", in: `{"Who":"ann"}`, err: "no ID"},
		{name: "array", in: `[{"ID":"x"}]`, err: "not a JSON object"},
		{name: "empty", in: ``, err: "not a JSON object"},
		{name: "trailing data", in: `{"ID":"x"} {}`, err: "after the JSON object"},
		{name: "bad time", in: `{"ID":"x","Created":"yesterday"}`, err: "not valid"},
		{name: "too large", in: `{"ID":"` + strings.Repeat("x", maxLockInfo) + `"}`, err: "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLockInfo([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseLockInfo: lock info comes from servers and shared storage, so
// parsing must never panic, and what it accepts must encode and parse
// back to the same info.
func FuzzParseLockInfo(f *testing.F) {
	f.Add([]byte(`{"ID":"1b2c","Operation":"OperationTypeApply","Who":"ann@box","Created":"2026-01-02T03:04:05Z"}`))
	f.Add([]byte(`{"ID":"x","Created":"0001-01-01T00:00:00Z"}`))
	f.Add([]byte(`{"ID":"\u00e9","Info":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := ParseLockInfo(data)
		if err != nil {
			return
		}
		again, err := ParseLockInfo(MarshalLockInfo(info))
		if err != nil {
			t.Fatalf("re-parsing encoded info: %v", err)
		}
		if !again.Created.Equal(info.Created) {
			t.Fatalf("created changed: %v -> %v", info.Created, again.Created)
		}
		again.Created = info.Created
		if diff := cmp.Diff(info, again); diff != "" {
			t.Fatalf("round trip (-first +again):\n%s", diff)
		}
	})
}
