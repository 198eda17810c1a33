//go:build !linux

package backends

import "time"

// Without /proc the benchmark reports wall time only.
func ownCPU() time.Duration            { return 0 }
func processCPU(pid int) time.Duration { return 0 }
func processesNamed(name string) []int { return nil }
