package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Most tenet runs are short and allocate a few hundred megabytes at most,
// and with the default GOGC the collector runs many times while the heap
// grows from nothing: a fifth of the CPU of a 5,000-instance plan. So the
// collector starts switched off, with a soft memory limit of
// gcStartLimit; when the heap that survives a collection passes half of
// it, the run is a large one and the default pacing (GOGC=100, no limit)
// takes over, so peak memory of large runs is what it would have been.
// GOGC or GOMEMLIMIT in the environment leave the runtime alone.
const gcStartLimit = 256 << 20

func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcStartLimit)
	watchLiveHeap()
}

// watchLiveHeap checks the live heap after each collection, through a
// finalizer that re-arms itself, and restores the default pacing once
// the live heap passes half the start limit.
func watchLiveHeap() {
	sentinel := &gcSentinel{}
	runtime.SetFinalizer(sentinel, func(*gcSentinel) {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > gcStartLimit/2 {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			return
		}
		watchLiveHeap()
	})
}

// gcSentinel holds a pointer so the runtime never packs it into a shared
// tiny block, where finalizers are not guaranteed to run.
type gcSentinel struct {
	_ *int
	_ [8]byte
}
