package planjson

import (
	"bytes"
	"encoding/json"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMarshalJSONMatchesRecordedPlans(t *testing.T) {
	for _, tc := range plantest.RecordedPlans {
		t.Run(tc.Name, func(t *testing.T) {
			p, raw := plantest.RecordedPlan(t, tc.Name, tc.Build)
			got, err := Marshal(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			var gotDoc, wantDoc map[string]any
			if err := json.Unmarshal(got, &gotDoc); err != nil {
				t.Fatalf("output is not JSON: %s\n%s", err, got)
			}
			if err := json.Unmarshal(raw, &wantDoc); err != nil {
				t.Fatal(err)
			}
			if _, ok := gotDoc["tenet"]; !ok {
				t.Errorf("no tenet object")
			}
			delete(gotDoc, "tenet")
			if diff := cmp.Diff(wantDoc, gotDoc); diff != "" {
				t.Fatalf("JSON plan differs from OpenTofu's (-want +got):\n%s", diff)
			}

			// Same content; now the key order must match too.
			if diff := cmp.Diff(indented(t, raw), indented(t, withoutTenet(t, got))); diff != "" {
				t.Errorf("key order differs from OpenTofu's (-want +got):\n%s", diff)
			}
		})
	}
}

func withoutTenet(t *testing.T, doc []byte) []byte {
	t.Helper()
	i := bytes.LastIndex(doc, []byte(`,"tenet":`))
	if i < 0 {
		t.Fatalf("no tenet key")
	}
	return append(doc[:i:i], '}')
}

func indented(t *testing.T, doc []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(doc), "", " "); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(buf.String())
}
