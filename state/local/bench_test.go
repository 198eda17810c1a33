package local

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// flatState is what `count = n` of terraform_data leaves after an apply.
func flatState(n int, suffix string) *state.State {
	s := state.NewState()
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Absolute(nil)
	for i := range n {
		s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(i)), &state.ObjectSrc{
			Status:    state.ObjectReady,
			AttrsJSON: fmt.Appendf(nil, `{"id":"aaaaaaaa-0000-0000-0000-%012d","input":{"value":"x-%d%s","type":"string"},"output":{"value":"x-%d%s","type":"string"},"triggers_replace":null}`, i, i, suffix, i, suffix),
		}, prov)
	}
	return s
}

func writeFlat(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "terraform.tfstate")
	writeFile(b, path, &statefile.File{Serial: 1, Lineage: "l", State: flatState(n, "")})
	return path
}

// BenchmarkRead100k is the state read of a no-change plan.
func BenchmarkRead100k(b *testing.B) {
	path := writeFlat(b, 100_000)
	for b.Loop() {
		if _, err := Open(path, Options{Lock: true}).Read(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFinish100k is the final write of an apply that changed every
// instance: read, journal, then Finish.
func BenchmarkFinish100k(b *testing.B) {
	path := writeFlat(b, 100_000)
	original, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	final := flatState(100_000, "-new")
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(path, original, 0o600); err != nil {
			b.Fatal(err)
		}
		m := Open(path, Options{})
		j := startJournal(b, m)
		b.StartTimer()
		if err := j.Finish(final); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJournalEntry times a journal line written by hand against
// encoding/json, which reflects and re-validates the object's JSON: the
// reason appendJSON exists.
func BenchmarkJournalEntry(b *testing.B) {
	e := journalEntry{
		Addr:     "terraform_data.r[12345]",
		Provider: `provider["terraform.io/builtin/terraform"]`,
		Object:   []byte(`{"schema_version":0,"attributes":{"id":"aaaaaaaa-0000-0000-0000-000000012345","input":{"value":"x-12345","type":"string"},"output":{"value":"x-12345","type":"string"},"triggers_replace":null},"sensitive_attributes":[]}`),
	}
	want, err := json.Marshal(e)
	if err != nil || string(e.appendJSON(nil)) != string(want) {
		b.Fatalf("appendJSON differs from encoding/json: %s, %v", e.appendJSON(nil), err)
	}
	b.Run("appendJSON", func(b *testing.B) {
		for b.Loop() {
			e.appendJSON(make([]byte, 0, 512))
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
