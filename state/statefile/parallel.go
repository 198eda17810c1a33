package statefile

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelMinBytes is the amount of instance JSON below which reading and
// writing stay on one goroutine: starting workers costs more than it
// saves on small states.
const parallelMinBytes = 256 << 10

// chunkCount is how many chunks runChunks cuts n items of size bytes
// into: 1 for small inputs, else a few per processor to even out uneven
// chunks and a busy core.
func chunkCount(n, size int) int {
	procs := runtime.GOMAXPROCS(0)
	if size < parallelMinBytes || procs < 2 || n < 2 {
		return 1
	}
	return min(n, procs*4)
}

// runChunks cuts n items into chunkCount contiguous chunks and calls work
// on each (c is the chunk's number), on up to GOMAXPROCS goroutines. work
// reports false to stop the chunks not yet started; runChunks then
// returns false.
func runChunks(n, size int, work func(c, lo, hi int) bool) bool {
	chunks := chunkCount(n, size)
	if chunks == 1 {
		return work(0, 0, n)
	}
	var (
		nextChunk atomic.Int64
		failed    atomic.Bool
		wg        sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), chunks) {
		wg.Go(func() {
			for !failed.Load() {
				c := int(nextChunk.Add(1) - 1)
				if c >= chunks {
					return
				}
				if !work(c, c*n/chunks, (c+1)*n/chunks) {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !failed.Load()
}

// decodeInstances decodes every instance span into out (same index).
func decodeInstances(src []byte, spans []span, out []decodedInstance) bool {
	size := 0
	if len(spans) > 0 {
		size = spans[len(spans)-1].end - spans[0].start
	}
	return runChunks(len(spans), size, func(_, lo, hi int) bool {
		return decodeInstanceRun(src, spans[lo:hi], out[lo:hi])
	})
}
