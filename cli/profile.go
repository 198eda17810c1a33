package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"time"
)

// startProfile writes a CPU profile of the whole command to the file
// named by TENET_CPUPROFILE, for measuring large runs end to end (see
// docs/performance.md). The returned function stops it.
func startProfile(env []string, stderr io.Writer) func() {
	var path string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TENET_CPUPROFILE="); ok {
			path = v
		}
	}
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "Warning: cannot write the CPU profile: %s\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "Warning: cannot start the CPU profile: %s\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// phaseLog prints how long each phase of a command took to stderr when
// TENET_TIMINGS is set, to see where the wall time of a large run goes
// (a CPU profile shows CPU, not waiting or single-core stretches).
type phaseLog struct {
	w    io.Writer
	last time.Time
}

func newPhaseLog(env []string, stderr io.Writer) *phaseLog {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TENET_TIMINGS="); ok && v != "" && v != "0" {
			return &phaseLog{w: stderr, last: time.Now()}
		}
	}
	return nil
}

// done reports the time since the previous phase ended.
func (l *phaseLog) done(phase string) {
	if l == nil {
		return
	}
	now := time.Now()
	fmt.Fprintf(l.w, "tenet timing: %-22s %8.1f ms\n", phase, float64(now.Sub(l.last).Microseconds())/1000)
	l.last = now
}
