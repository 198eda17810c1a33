package local

import (
	"encoding/json"
	"testing"
)

// TestJournalEntryJSONMatchesEncodingJSON keeps the hand-written journal
// line identical to what encoding/json writes, so journals read the same
// whichever wrote them.
func TestJournalEntryJSONMatchesEncodingJSON(t *testing.T) {
	obj := json.RawMessage(`{"schema_version":0,"attributes":{"id":"a\u003cb"},"sensitive_attributes":[]}`)
	tests := []struct {
		name string
		e    journalEntry
	}{
		{"object", journalEntry{Addr: "terraform_data.r[0]", Provider: `provider["terraform.io/builtin/terraform"]`, Object: obj}},
		{"deposed", journalEntry{Addr: `module.m["<k>"].aws_instance.x`, Deposed: "00000001", Object: obj}},
		{"removed", journalEntry{Addr: "terraform_data.r[\"é\\\"\"]"}},
		{"output", journalEntry{Output: "out", Value: json.RawMessage(`{"value":"x","type":"string"}`)}},
		{"output removed", journalEntry{Output: "out&", Value: json.RawMessage("null")}},
		{"empty", journalEntry{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.e)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.e.appendJSON(nil); string(got) != string(want) {
				t.Errorf("journal line:\n got  %s\n want %s", got, want)
			}
		})
	}
}
