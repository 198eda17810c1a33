package cli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcStartLimit is the heap size up to which tuneGC keeps the collector off.
const gcStartLimit = 512 << 20

// tuneGC sets the collector policy tenet runs with and returns a function
// that puts the previous settings back.
//
// Most runs are short and allocate a few hundred megabytes at most; with
// the default GOGC the collector runs many times while the heap grows from
// nothing, a large share of a short run's CPU. So the collector
// starts off, under a soft memory limit of gcStartLimit; when the heap
// that survives a collection passes half of it, the run is a large one and
// the default pacing (GOGC=100, no limit) takes over, so the peak memory of
// large runs is what it would have been. GOGC or GOMEMLIMIT in the
// environment leave the runtime alone.
func tuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prevPercent := debug.SetGCPercent(-1)
	prevLimit := debug.SetMemoryLimit(gcStartLimit)
	stopped := &atomic.Bool{}
	watchLiveHeap(stopped)
	return func() {
		stopped.Store(true)
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}

// watchLiveHeap checks the live heap after each collection, through a
// finalizer that re-arms itself, and restores the default pacing once the
// live heap passes half the start limit.
func watchLiveHeap(stopped *atomic.Bool) {
	sentinel := &gcSentinel{}
	runtime.SetFinalizer(sentinel, func(*gcSentinel) {
		if stopped.Load() {
			return
		}
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > gcStartLimit/2 {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			return
		}
		watchLiveHeap(stopped)
	})
}

// gcSentinel holds a pointer so the runtime never packs it into a shared
// tiny block, where finalizers are not guaranteed to run.
type gcSentinel struct {
	_ *int
	_ [8]byte
}
