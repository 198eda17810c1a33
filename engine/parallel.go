package engine

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

// eachParallel calls fn for every index in [0, n) on up to GOMAXPROCS
// goroutines and returns the diagnostics in index order.
func eachParallel(n int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	return eachParallelN(n, runtime.GOMAXPROCS(0), fn)
}

// eachParallelN is eachParallel with at most workers goroutines.
func eachParallelN(n, workers int, fn func(i int) hcl.Diagnostics) hcl.Diagnostics {
	chunks := (n + parallelChunk - 1) / parallelChunk
	workers = min(workers, chunks)
	if n < parallelMin || workers <= 1 {
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
