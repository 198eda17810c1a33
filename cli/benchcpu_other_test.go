//go:build !unix

package cli

import "time"

// processCPU is unknown here: benchmarks then report no CPU time.
func processCPU() time.Duration { return 0 }
