package rules

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// evalInChunks splits n items into chunks of minChunk..maxChunk and calls
// eval(lo, hi) for each, on up to GOMAXPROCS goroutines when there is more
// than one chunk. The first error cancels the rest.
func evalInChunks(ctx context.Context, n int, eval func(ctx context.Context, lo, hi int) error) error {
	if n == 0 {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	chunk := min(maxChunk, max(minChunk, (n+workers-1)/workers))
	chunks := (n + chunk - 1) / chunk
	workers = min(workers, chunks)
	run := func(ctx context.Context, i int) error {
		lo := i * chunk
		return eval(ctx, lo, min(lo+chunk, n))
	}
	if workers == 1 {
		for i := range chunks {
			if err := run(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= chunks || ctx.Err() != nil {
					return
				}
				if err := run(ctx, i); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
