package modinstall

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Lines go out in OpenTofu's order whatever order the parallel calls
// finish in, each as soon as everything before it has gone out.
func TestProgressOrder(t *testing.T) {
	var out []string
	p := newProgress(func(e Event) { out = append(out, e.String()) })
	step := func(what string, f func(), want ...string) {
		t.Helper()
		f()
		if diff := cmp.Diff(want, out, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("after %s (-want +got)\n%s", what, diff)
		}
	}
	dl := func(key string) Event {
		return Event{Kind: EventDownloading, Key: key, Source: "git::https://example.com/" + key + ".git"}
	}
	in := func(key string) Event { return Event{Kind: EventInstalled, Key: key, Dir: ".terraform/modules/" + key} }

	step("root calls read", func() { p.callsRead("", []string{"b", "a"}) })
	step("b finished first", func() { p.add("b", dl("b")); p.add("b", in("b")); p.callDone("b") })
	step("a starts downloading", func() { p.add("a", dl("a")) },
		"Downloading git::https://example.com/a.git for a...")
	step("a finished", func() { p.add("a", in("a")); p.callDone("a") },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a")
	step("a's calls read", func() { p.callsRead("a", []string{"a.x"}) },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a")
	step("a.x finished", func() { p.add("a.x", in("a.x")); p.callDone("a.x") },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a",
		"- a.x in .terraform/modules/a.x")
	step("a.x calls nothing", func() { p.callsRead("a.x", nil) },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a",
		"- a.x in .terraform/modules/a.x",
		"Downloading git::https://example.com/b.git for b...",
		"- b in .terraform/modules/b")
	// b's calls were never read (the walk stopped): finish sends the rest.
	step("more of b", func() { p.add("b.y", in("b.y")) },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a",
		"- a.x in .terraform/modules/a.x",
		"Downloading git::https://example.com/b.git for b...",
		"- b in .terraform/modules/b")
	step("finish", func() { p.callsRead("b", []string{"b.y"}); p.finish() },
		"Downloading git::https://example.com/a.git for a...",
		"- a in .terraform/modules/a",
		"- a.x in .terraform/modules/a.x",
		"Downloading git::https://example.com/b.git for b...",
		"- b in .terraform/modules/b",
		"- b.y in .terraform/modules/b.y")
}
