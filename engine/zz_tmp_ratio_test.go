package engine_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestTmpRatioParts(t *testing.T) {
	if os.Getenv("TMP_PARTS") == "" {
		t.Skip()
	}
	const n = 5000
	base := newTeamFixture(t, lifecycleConfig(n), nil)
	s := base.apply(t, base.plan(t, nil))
	for _, part := range strings.Split(os.Getenv("TMP_PARTS"), ",") {
		team := map[string]string{}
		for k, v := range benchTeamRules {
			if part == "all" || strings.HasPrefix(k, part) {
				team[k] = v
			}
		}
		if part == "none" {
			team["x.rego"] = "package acme\n\nx := 1\n"
		}
		f := newTeamFixture(t, lifecycleConfig(n), team)
		best := [2]time.Duration{time.Hour, time.Hour}
		for range 3 {
			for i, g := range []*benchFixture{base, f} {
				start := time.Now()
				g.plan(t, s)
				best[i] = min(best[i], time.Since(start))
			}
		}
		t.Logf("%s: %.2f", part, float64(best[1])/float64(best[0]))
	}
}
