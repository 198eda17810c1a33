//go:build unix

package cli

import (
	"syscall"
	"time"
)

// processCPU is the user and system CPU time the process has used: on a
// shared machine a steadier measure than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
