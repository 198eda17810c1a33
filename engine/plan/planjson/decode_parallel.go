package planjson

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// parallelDecodeBytes is the array size below which one goroutine decodes
// resource changes: starting more costs more than it saves.
const parallelDecodeBytes = 128 << 10

// elementMarker is where, in the compact documents the plan writes, one
// resource change ends and the next begins. It can also occur deeper in a
// value (an object with an "address" attribute inside a list), so a split
// found with it is only a guess that decoding confirms.
const elementMarker = `},{"address":"`

// driftEnd follows resource_drift in the compact documents.
const driftEnd = `],"resource_changes":`

// changesEnds can follow resource_changes in the compact documents, which
// end with what follows it; tailWindow is how far from the end they are
// looked for (farther, a guess past the array only wastes some work).
var changesEnds = []string{
	`],"output_changes":`,
	`],"relevant_attributes":`,
	`],"errored":`,
}

const tailWindow = 64 << 10

// arrayLimit guesses where the resource change array of key starting at
// start ends, so that split points are looked for only inside it.
func (d *docDecoder) arrayLimit(key string, start int) int {
	limit := len(d.Src)
	switch key {
	case "resource_drift":
		if i := strings.Index(d.Src[start:], driftEnd); i >= 0 {
			limit = start + i
		}
	case "resource_changes":
		from := max(start, len(d.Src)-tailWindow)
		for _, m := range changesEnds {
			if i := strings.LastIndex(d.Src[from:], m); i >= 0 {
				limit = min(limit, from+i)
			}
		}
	}
	return limit
}

// changeRun is what one goroutine decoded: the changes from start up to
// the first element boundary at or after the next split, or to the end of
// the array (closed).
type changeRun struct {
	start   int
	changes []*ResourceChange
	end     int // position after the last element's comma, or after ']'
	closed  bool
	bad     bool
}

// parallelResourceChanges decodes a long resource change array (pos at its
// '[', key its name) on several goroutines. It guesses element boundaries with
// elementMarker, lets each goroutine decode from one guess to the next, and
// then walks the runs in order from the array's start: a run is used only
// when the run before it ended exactly where it starts, so a wrong guess
// costs time but never changes the result (the rest is then decoded here).
// ok is false when the array is too short to be worth it.
func (d *docDecoder) parallelResourceChanges(key string) ([]*ResourceChange, bool) {
	procs := d.workers
	if procs < 2 || len(d.Src)-d.pos < parallelDecodeBytes {
		return nil, false
	}
	start := d.pos + 1
	limit := d.arrayLimit(key, start)
	if limit-start < parallelDecodeBytes {
		return nil, false
	}
	parts := min(procs*4, (limit-start)/(parallelDecodeBytes/4))
	splits := []int{start}
	for k := 1; k < parts; k++ {
		from := max(start+(limit-start)*k/parts, splits[len(splits)-1]+1)
		if from >= limit {
			break
		}
		i := strings.Index(d.Src[from:limit], elementMarker)
		if i < 0 {
			break
		}
		splits = append(splits, from+i+2)
	}
	runs := make([]changeRun, len(splits))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(procs, len(splits)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(splits) {
					return
				}
				bound := limit
				if i+1 < len(splits) {
					bound = splits[i+1]
				}
				runs[i] = d.decodeRun(splits[i], bound, i == 0)
			}
		})
	}
	wg.Wait()

	total := 0
	for _, r := range runs {
		total += len(r.changes)
	}
	out := make([]*ResourceChange, 0, total)
	cur := runs[0]
	for i := 0; ; {
		if cur.bad {
			d.fail()
			return nil, true
		}
		out = append(out, cur.changes...)
		if cur.closed {
			d.pos = cur.end
			return out, true
		}
		if i+1 < len(runs) && runs[i+1].start == cur.end {
			i++
			cur = runs[i]
			continue
		}
		// A guess was wrong: finish the array from the last true boundary.
		cur = d.decodeRun(cur.end, len(d.Src), false)
		i = len(runs)
	}
}

// decodeRun decodes changes from pos until an element ends at or past
// bound or the array closes; first is set at the array's start, where it
// may be empty.
func (d *docDecoder) decodeRun(pos, bound int, first bool) changeRun {
	sub := &docDecoder{Scanner: jsontext.Scanner[string]{Src: d.Src}, pos: pos, depth: d.depth + 1}
	run := changeRun{start: pos}
	if first && sub.consume(']') {
		run.end, run.closed = sub.pos, true
		return run
	}
	var slab changeSlab
	for {
		sub.skipSpace()
		elemStart := sub.pos
		rc := slab.next()
		sub.resourceChange(rc)
		run.changes = append(run.changes, rc)
		if sub.bad {
			run.bad = true
			return run
		}
		if len(run.changes) == 1 && sub.pos > elemStart {
			// Size the run from its first element.
			want := (bound-elemStart)/(sub.pos-elemStart+1)*9/8 + 4
			run.changes = make([]*ResourceChange, 1, want)
			run.changes[0] = rc
		}
		if sub.next(']') {
			if sub.pos >= bound {
				run.end = sub.pos
				return run
			}
			continue
		}
		run.end, run.closed, run.bad = sub.pos, !sub.bad, sub.bad
		return run
	}
}
