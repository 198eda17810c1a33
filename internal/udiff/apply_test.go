package udiff

import (
	"fmt"
	"strings"
	"testing"
)

// apply applies a diff Unified wrote to a, so the fuzz target can check
// that every diff leads from a to b.
func apply(t *testing.T, a string, diff []byte) string {
	t.Helper()
	old := splitLines([]byte(a))
	lines := splitLines(diff)[2:]
	var out []string
	next := 0 // index of the next line of old not yet copied
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@ ") {
			var os, ol, ns, nl int
			if _, err := fmt.Sscanf(hunkHeaderForScan(l), "@@ -%d,%d +%d,%d @@", &os, &ol, &ns, &nl); err != nil {
				t.Fatalf("bad hunk header %q: %v", l, err)
			}
			start := os - 1
			if ol == 0 {
				start = os
			}
			out = append(out, old[next:start]...)
			next = start
			continue
		}
		text := l[1:]
		if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
			text = strings.TrimSuffix(text, "\n")
			i++
		}
		switch l[0] {
		case ' ':
			if old[next] != text {
				t.Fatalf("context %q does not match %q", text, old[next])
			}
			out = append(out, text)
			next++
		case '-':
			if old[next] != text {
				t.Fatalf("removed %q does not match %q", text, old[next])
			}
			next++
		case '+':
			out = append(out, text)
		default:
			t.Fatalf("bad diff line %q", l)
		}
	}
	out = append(out, old[next:]...)
	return strings.Join(out, "")
}

// hunkHeaderForScan spells out the lengths a header leaves out.
func hunkHeaderForScan(h string) string {
	fields := strings.Fields(h)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(fields[i], ",") {
			fields[i] += ",1"
		}
	}
	return strings.Join(fields, " ")
}
