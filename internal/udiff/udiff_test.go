package udiff

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var cases = []struct {
	name, a, b, want string
}{
	{name: "equal", a: "x\ny\n", b: "x\ny\n", want: ""},
	{
		name: "one line changed",
		a:    "a\nb\nc\n", b: "a\nB\nc\n",
		want: "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
	},
	{
		name: "removed lines before added ones",
		a:    "r {\nx=1\n  y=2\n}\n", b: "r {\n  x = 1\n  y = 2\n}\n",
		want: "--- old\n+++ new\n@@ -1,4 +1,4 @@\n r {\n-x=1\n-  y=2\n+  x = 1\n+  y = 2\n }\n",
	},
	{
		name: "far apart changes make two hunks",
		a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", b: "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
		want: "--- old\n+++ new\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n",
	},
	{
		name: "changes six lines apart share a hunk",
		a:    "1\n2\n3\n4\n5\n6\n7\n8\n", b: "one\n2\n3\n4\n5\n6\n7\neight\n",
		want: "--- old\n+++ new\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n",
	},
	{
		name: "single line ranges leave out the length",
		a:    "x\n", b: "y\n",
		want: "--- old\n+++ new\n@@ -1 +1 @@\n-x\n+y\n",
	},
	{
		name: "from empty",
		a:    "", b: "x\ny\n",
		want: "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n",
	},
	{
		name: "to empty",
		a:    "x\n", b: "",
		want: "--- old\n+++ new\n@@ -1 +0,0 @@\n-x\n",
	},
	{
		name: "missing final newline",
		a:    "a\nb", b: "a\nb\n",
		want: "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
	},
	{
		name: "insertion in the middle",
		a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n", b: "1\n2\n3\n4\n4.5\n5\n6\n7\n8\n9\n",
		want: "--- old\n+++ new\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+4.5\n 5\n 6\n 7\n",
	},
}

func TestUnified(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(Unified("old", "new", []byte(c.a), []byte(c.b)))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Unified (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSameAsDiffCommand compares each case with the system's `diff -u`,
// the program OpenTofu's fmt runs, where there is one.
func TestSameAsDiffCommand(t *testing.T) {
	diffCmd, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff command on this system")
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			if err := os.WriteFile(a, []byte(c.a), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(b, []byte(c.b), 0o600); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command(diffCmd, "--label=old", "--label=new", "-u", a, b).Output()
			if diff := cmp.Diff(string(out), string(Unified("old", "new", []byte(c.a), []byte(c.b)))); diff != "" {
				t.Errorf("differs from diff -u (-diff +ours):\n%s", diff)
			}
		})
	}
}

func FuzzUnified(f *testing.F) {
	for _, c := range cases {
		f.Add(c.a, c.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := Unified("old", "new", []byte(a), []byte(b))
		if (a == b) != (got == nil) {
			t.Fatalf("Unified(%q, %q) = %q", a, b, got)
		}
		if got != nil {
			if back := apply(t, a, got); back != b {
				t.Fatalf("applying the diff of %q to %q gave %q", a, b, back)
			}
		}
	})
}

// TestLargeRewriteStaysBounded checks that a file rewritten throughout
// gets a correct diff without keeping the whole search.
func TestLargeRewriteStaysBounded(t *testing.T) {
	var a, b strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&a, "line %d\n", i)
		fmt.Fprintf(&b, "  line %d\n", i)
	}
	got := Unified("old", "new", []byte(a.String()), []byte(b.String()))
	if back := apply(t, a.String(), got); back != b.String() {
		t.Fatal("the diff does not lead from the old text to the new one")
	}
}
