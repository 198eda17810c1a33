package human

import (
	"sync"
	"sync/atomic"
)

// parallelRenderChanges is the number of changes from which they are drawn
// on several goroutines; below it, starting them costs more than it saves.
const parallelRenderChanges = 200

// renderChanges draws each change after a blank line. Changes draw
// independently, so a long list is cut into chunks drawn by separate
// renderers (each with its own printer, whose per-resource settings must
// not be shared) and joined in order.
func (r *planRenderer) renderChanges(changes []shownChange) {
	if r.workers < 2 || len(changes) < parallelRenderChanges {
		r.renderEach(changes)
		return
	}
	// Schemas are looked up here, once per resource type: SchemaLookup
	// implementations need not be safe for concurrent use.
	for _, c := range changes {
		r.schemaFor(c.rc)
	}

	chunkSize := max(64, len(changes)/(r.workers*4))
	chunks := make([]string, (len(changes)+chunkSize-1)/chunkSize)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(r.workers, len(chunks)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(chunks) {
					return
				}
				part := changes[i*chunkSize : min(len(changes), (i+1)*chunkSize)]
				chunks[i] = r.renderChunk(part)
			}
		})
	}
	wg.Wait()
	r.cut()
	r.out = append(r.out, chunks...)
}

// renderChunk draws changes with a renderer of its own.
func (r *planRenderer) renderChunk(changes []shownChange) string {
	w := *r
	w.p = &printer{color: r.opts.Color}
	w.out = nil
	w.renderEach(changes)
	return w.p.String()
}

// renderEach draws changes, each after a blank line.
func (r *planRenderer) renderEach(changes []shownChange) {
	for i, c := range changes {
		r.p.WriteString("\n")
		r.renderResource(c.rc, c.act, false)
		if i == 0 && len(changes) > 1 {
			// Make room for the rest, judging by the first (within reason:
			// it may be much larger than the others).
			r.p.Grow(min(r.p.Len(), 1024) * (len(changes) - 1) * 9 / 8)
		}
	}
}
