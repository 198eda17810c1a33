package engine_test

import "runtime/debug"

// benchGC runs the collector as tenet's command line starts it (the
// process policy lives in cli): off, under a soft memory limit, so that
// timings compare plans rather than collector pacing. It returns a
// function that puts the previous settings back.
func benchGC() (restore func()) {
	prevPercent := debug.SetGCPercent(-1)
	prevLimit := debug.SetMemoryLimit(512 << 20)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}
