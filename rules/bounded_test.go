package rules

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestBoundedBuiltins: in team files, each built-in that can build a value
// far larger than its arguments refuses a result estimated above a
// quarter of the memory limit (here 1MiB of 4MiB), naming the built-in and
// the line, and computes ordinary results as the built-in does.
func TestBoundedBuiltins(t *testing.T) {
	const helpers = `package acme

kb := concat("", [x | some _ in numbers.range(1, 1024); x := "a"])

kbs(n) := [kb | some _ in numbers.range(1, n)]
`
	tests := []struct {
		call    string
		want    string // the message sprintf("%v", [value]) makes of it, when allowed
		refused bool
	}{
		{`concat("-", ["a", "b"])`, "a-b", false},
		{`concat(acme.kb, acme.kbs(1100))`, "", true},
		{`replace("abc", "b", "xx")`, "axxc", false},
		{`replace(acme.kb, "", acme.kb)`, "", true},
		{`strings.replace_n({"a": "b"}, "aab")`, "bbb", false},
		{`strings.replace_n({"": acme.kb}, acme.kb)`, "", true},
		{`regex.replace("abc", "b", "[$0]")`, "a[b]c", false},
		{`regex.replace(acme.kb, "a", "$0$0")`, "", true},
		{`sprintf("%s-%d", ["a", 1])`, "a-1", false},
		{`sprintf("%0999999d%0999999d", [1, 2])`, "", true},
		{`json.marshal({"a": [1]})`, `{"a":[1]}`, false},
		{`json.marshal(acme.kbs(200))`, "", true},
		{`json.marshal_with_options({"a": 1}, {"pretty": true, "indent": " "})`, "{\n \"a\": 1\n}", false},
		{`json.marshal_with_options(acme.kbs(100), {"pretty": true, "indent": acme.kb})`, "", true},
		{`yaml.marshal({"a": 1})`, "a: 1\n", false},
		{`yaml.marshal(acme.kbs(200))`, "", true},
		{`array.concat([1], [2])`, `[1, 2]`, false},
		{`array.concat(acme.kbs(600), acme.kbs(600))`, "", true},
		{`numbers.range(1, 3)`, `[1, 2, 3]`, false},
		{`numbers.range(1, 1000000)`, "", true},
		{`numbers.range_step(1, 7, 3)`, `[1, 4, 7]`, false},
		{`numbers.range_step(0, 10000000, 2)`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			src := fmt.Sprintf("package tenet.decide\n\nimport data.acme\n\nprevent_destroy contains [i, sprintf(\"%%v\", [v])] if {\n\tsome i, _ in input.instances\n\tv := %s\n}\n", tt.call)
			e, diags := New(context.Background(), Options{
				Team:      []Source{{Name: ".tenet/rules", FS: mapFS(map[string]string{"t.rego": src, "acme.rego": helpers})}},
				TimeLimit: time.Minute, MemoryLimit: 4 << 20,
			})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, err := e.Decide(context.Background(), Run{Mode: ModeDestroy, Timestamp: caseTimestamp}, []Instance{{Address: "db.a", Resource: "db.a", Mode: "managed", Type: "db", Name: "a", HasPrior: true}})
			if tt.refused {
				var re *RuleError
				if !errors.As(err, &re) || re.Line != 7 || !strings.Contains(err.Error(), "would build a value") {
					t.Fatalf("error = %v, want a RuleError at line 7 refusing the value", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got[0].Provenance) < 2 || got[0].Provenance[1].Message != tt.want {
				t.Fatalf("value = %+v, want message %s", got[0].Provenance, tt.want)
			}
		})
	}
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return fsys
}
