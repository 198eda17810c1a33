package udiff

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change; two
// changes closer than twice that share a hunk.
const context = 3

type opKind byte

const (
	same opKind = ' '
	del  opKind = '-'
	ins  opKind = '+'
)

// op is one line of the edit script.
type op struct {
	kind opKind
	line string // with its newline, if it has one
}

// Unified returns the unified diff turning a into b under the headers
// "--- oldLabel" and "+++ newLabel", or nil when they are equal.
func Unified(oldLabel, newLabel string, a, b []byte) []byte {
	if bytes.Equal(a, b) {
		return nil
	}
	ops := editScript(splitLines(a), splitLines(b))
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldLabel, newLabel)
	for _, h := range hunks(ops) {
		h.write(&out, ops)
	}
	return out.Bytes()
}

// splitLines cuts s after each newline; the last line may lack one.
func splitLines(s []byte) []string {
	lines := strings.SplitAfter(string(s), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// traceBudget bounds the ints kept to walk back along a shortest script
// (about 64 MiB); past it the rest of the change is shown as one block.
const traceBudget = 8 << 20

// editScript returns an edit script from a to b, with the deletions of
// each run of changes before its insertions: a shortest one unless that
// would take more than traceBudget to find.
func editScript(a, b []string) []op {
	var ops []op
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		ops = append(ops, op{same, a[0]})
		a, b = a[1:], b[1:]
	}
	var tail []op
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append(tail, op{same, a[len(a)-1]})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	middle, ok := shortestScript(a, b)
	if !ok {
		middle = middle[:0]
		for _, l := range a {
			middle = append(middle, op{del, l})
		}
		for _, l := range b {
			middle = append(middle, op{ins, l})
		}
	}
	ops = append(ops, middle...)
	for i := len(tail) - 1; i >= 0; i-- {
		ops = append(ops, tail[i])
	}
	return deletionsFirst(ops)
}

// shortestScript is Myers' greedy search for a shortest edit script. It
// keeps each round's furthest reaching paths (diagonals -d..d) to walk
// back along the one that arrived; false when they outgrow traceBudget.
func shortestScript(a, b []string) ([]op, bool) {
	n, m := len(a), len(b)
	offset := n + m + 1
	v := make([]int, 2*offset+1)
	var trace [][]int // trace[d][d+k]: v[k] before round d
	kept := 0
	for d := 0; ; d++ {
		kept += 2*d + 1
		if kept > traceBudget {
			return nil, false
		}
		trace = append(trace, append([]int(nil), v[offset-d:offset+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1] // down: an insertion
			} else {
				x = v[offset+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return walkBack(a, b, trace), true
			}
		}
	}
}

// walkBack recovers the script from the rounds shortestScript kept.
func walkBack(a, b []string, trace [][]int) []op {
	var rev []op
	x, y := len(a), len(b)
	for d := len(trace) - 1; d >= 0 && (x > 0 || y > 0); d-- {
		at := func(k int) int { return trace[d][d+k] }
		k := x - y
		pk := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		}
		px := 0
		if d > 0 {
			px = at(pk)
		}
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{same, a[x]})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, op{ins, b[y]})
		} else {
			x--
			rev = append(rev, op{del, a[x]})
		}
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

// deletionsFirst reorders each run of changes so its deletions come
// before its insertions, as diff prints them.
func deletionsFirst(ops []op) []op {
	for i := 0; i < len(ops); {
		if ops[i].kind == same {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != same {
			j++
		}
		run := make([]op, 0, j-i)
		for _, o := range ops[i:j] {
			if o.kind == del {
				run = append(run, o)
			}
		}
		for _, o := range ops[i:j] {
			if o.kind == ins {
				run = append(run, o)
			}
		}
		copy(ops[i:j], run)
		i = j
	}
	return ops
}

// hunk is a stretch ops[from:to] of the edit script shown together.
type hunk struct{ from, to int }

// hunks groups the changes of ops with their context.
func hunks(ops []op) []hunk {
	var hs []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == same {
			continue
		}
		start := max(0, i-context)
		if len(hs) > 0 && start <= hs[len(hs)-1].to {
			start = hs[len(hs)-1].from
			hs = hs[:len(hs)-1]
		}
		end := i
		for end < len(ops) && ops[end].kind != same {
			end++
		}
		hs = append(hs, hunk{start, min(len(ops), end+context)})
		i = end - 1
	}
	return hs
}

func (h hunk) write(out *bytes.Buffer, ops []op) {
	// Line numbers of the hunk's first line in each text.
	oldStart, newStart := 1, 1
	for _, o := range ops[:h.from] {
		if o.kind != ins {
			oldStart++
		}
		if o.kind != del {
			newStart++
		}
	}
	oldLen, newLen := 0, 0
	for _, o := range ops[h.from:h.to] {
		if o.kind != ins {
			oldLen++
		}
		if o.kind != del {
			newLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", span(oldStart, oldLen), span(newStart, newLen))
	for _, o := range ops[h.from:h.to] {
		out.WriteByte(byte(o.kind))
		out.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// span is a hunk header's range: an empty one names the line before it,
// and a length of one is left out.
func span(start, length int) string {
	switch length {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, length)
}
