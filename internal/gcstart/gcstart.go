package gcstart

import (
	"os"
	"runtime/debug"
)

// startLimit matches cli's gcStartLimit: the soft limit under which the
// collector stays off.
const startLimit = 512 << 20

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startLimit)
}
