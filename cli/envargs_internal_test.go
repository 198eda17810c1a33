package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{in: "", want: nil},
		{in: "  \t\n ", want: nil},
		{in: "-var x=1 -no-color", want: []string{"-var", "x=1", "-no-color"}},
		{in: `-var "x=a b"`, want: []string{"-var", "x=a b"}},
		{in: `-var x='a b'`, want: []string{"-var", "x=a b"}},
		{in: `-var x=a\ b\"c`, want: []string{"-var", `x=a b"c`}},
		{in: `"a\"b\\c\$d\e"`, want: []string{`a"b\c$d\e`}},
		{in: `'a\b'`, want: []string{`a\b`}},
		{in: `"$HOME"`, want: []string{"$HOME"}},
		{in: `""`, want: []string{""}},
		{in: `a""b''c`, want: []string{"abc"}},
		{in: `"a`, bad: true},
		{in: `'a`, bad: true},
		{in: `a\`, bad: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := splitShellWords(tc.in)
			if tc.bad {
				if err == nil {
					t.Fatalf("got %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithEnvArgs(t *testing.T) {
	root := NewRootCommand(Deps{Stdout: io.Discard, Stderr: io.Discard})
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		want []string
	}{
		{"none", []string{"plan"}, nil, []string{"plan"}},
		{"general after the subcommand", []string{"plan", "-var", "x=u"}, []string{"TF_CLI_ARGS=-no-color"}, []string{"plan", "-no-color", "-var", "x=u"}},
		{"command's own before the general", []string{"plan"}, []string{"TF_CLI_ARGS=-a", "TF_CLI_ARGS_plan=-b"}, []string{"plan", "-b", "-a"}},
		{"other command's not used", []string{"apply"}, []string{"TF_CLI_ARGS_plan=-b"}, []string{"apply"}},
		{"global option first", []string{"-chdir=x", "plan"}, []string{"TF_CLI_ARGS_plan=-b"}, []string{"-chdir=x", "plan", "-b"}},
		{"nested command", []string{"state", "list"}, []string{"TF_CLI_ARGS_state_list=-id=1"}, []string{"state", "list", "-id=1"}},
		{"dash in a name", []string{"force-unlock", "ID"}, []string{"TF_CLI_ARGS_force_unlock=-force"}, []string{"force-unlock", "-force", "ID"}},
		{"no subcommand", []string{"-version"}, []string{"TF_CLI_ARGS=-x"}, []string{"-x", "-version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := withEnvArgs(root, tc.args, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := withEnvArgs(root, []string{"plan"}, []string{"TF_CLI_ARGS_plan='x"}); err == nil || !strings.Contains(err.Error(), "TF_CLI_ARGS_plan") {
		t.Errorf("unterminated quote: %v", err)
	}
}

// FuzzSplitShellWords: the splitter never panics, and joining its words
// quoted back splits into the same words.
func FuzzSplitShellWords(f *testing.F) {
	for _, s := range []string{`-var "x=a b"`, `a\ b 'c d' "e\"f"`, `"`, `\`, "a\tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitShellWords(s)
		if err != nil {
			return
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := splitShellWords(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("re-splitting %q: %v", quoted, err)
		}
		if diff := cmp.Diff(words, again); diff != "" {
			t.Errorf("round trip of %q (-first +second):\n%s", s, diff)
		}
	})
}
