package providercall

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
)

// Instances of one resource node are independent of each other, so their
// per-instance work (evaluate, ask the provider, record) is spread over
// the cores in chunks: one goroutine per core pulling chunks, never one
// goroutine per instance.
const (
	parallelMin   = 64  // below this many items, one goroutine is cheaper
	parallelChunk = 128 // items a worker takes at a time
)

// EachParallel calls fn for every index in [0, n) on up to GOMAXPROCS
// goroutines and returns the diagnostics in index order.
func EachParallel(n int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	return eachParallelN(n, runtime.GOMAXPROCS(0), fn)
}

// eachParallelN is EachParallel with at most workers goroutines.
func eachParallelN(n, workers int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	return eachChunked(n, workers, parallelChunk, parallelMin, fn)
}

// remoteChunk is how many instances a worker takes at a time when each
// waits on a provider plugin: small, so that up to -parallelism calls
// are in flight even for a few hundred instances.
const remoteChunk = 4

// EachProviderCall is EachParallel for per-instance work that calls the
// provider. A provider in another process (a plugin) spends its time
// there, not on this process's cores, so up to par (-parallelism) calls
// run at once, as OpenTofu does; an in-process provider is CPU work and
// gets one goroutine per core.
func EachProviderCall(p any, par, n int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	if r, ok := p.(outOfProcess); ok && r.OutOfProcess() {
		return eachChunked(n, max(par, runtime.GOMAXPROCS(0)), remoteChunk, 2, fn)
	}
	return EachParallel(n, fn)
}

// outOfProcess is implemented by providers whose calls cross a process
// boundary (provider plugins).
type outOfProcess interface{ OutOfProcess() bool }

func eachChunked(n, workers, chunk, minItems int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	parallelChunk := chunk
	chunks := (n + parallelChunk - 1) / parallelChunk
	workers = min(workers, chunks)
	if n < minItems || workers <= 1 {
		var diags hcl.Diagnostics
		for i := range n {
			diags = append(diags, fn(i)...)
		}
		return diags
	}
	out := make([]hcl.Diagnostics, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				for i := c * parallelChunk; i < min(n, (c+1)*parallelChunk); i++ {
					out[i] = fn(i)
				}
			}
		})
	}
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range out {
		diags = append(diags, d...)
	}
	return diags
}
