package graphsolve

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCyclesAgreeWithBruteForce checks Validate against the definition of
// a strongly connected component: u and v are in one cycle exactly when
// each reaches the other. (dominikbraun/graph v0.23.0, which design.md
// suggested for SCCs, fails this check: it reports cycles through vertex 0
// that do not exist and misses real ones, so it is not used at all.)
func TestCyclesAgreeWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		n := 2 + rng.Intn(30)
		edges := rng.Intn(n * 2)
		name := func(i int) string { return fmt.Sprintf("v%02d", i) }
		g := New[int](name)
		adj := make([][]int, n)
		for i := 0; i < n; i++ {
			g.AddVertex(i)
		}
		for e := 0; e < edges; e++ {
			from, to := rng.Intn(n), rng.Intn(n)
			if from == to {
				continue // self references are reported on their own
			}
			g.AddEdge(from, to)
			adj[from] = append(adj[from], to)
		}
		reach := make([]map[int]bool, n)
		for s := 0; s < n; s++ {
			seen := map[int]bool{}
			stack := []int{s}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, y := range adj[x] {
					if !seen[y] {
						seen[y] = true
						stack = append(stack, y)
					}
				}
			}
			reach[s] = seen
		}
		var want []string
		done := make([]bool, n)
		for i := 0; i < n; i++ {
			if done[i] {
				continue
			}
			comp := []string{name(i)}
			for j := i + 1; j < n; j++ {
				if !done[j] && reach[i][j] && reach[j][i] {
					done[j] = true
					comp = append(comp, name(j))
				}
			}
			if len(comp) > 1 {
				sort.Strings(comp)
				want = append(want, "Cycle: "+strings.Join(comp, ", "))
			}
		}
		sort.Strings(want)
		var got []string
		for _, err := range g.Validate() {
			got = append(got, err.Error())
		}
		sort.Strings(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d (%d vertices): cycles differ from brute force (-want +got):\n%s", round, n, diff)
		}
	}
}
