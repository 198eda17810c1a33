package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
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
