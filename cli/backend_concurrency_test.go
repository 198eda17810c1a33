package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/statefile"
)

// The concurrency tests run the real binary as many processes against one
// PostgreSQL database. Their sizes are small by default; the script
// scripts/backend-stress.sh sets TENET_BACKEND_FULL=1 for the sizes the
// issue names (20 applies, 50 workspaces).

func stressSize(short, full int) int {
	if os.Getenv("TENET_BACKEND_FULL") != "" {
		return full
	}
	return short
}

// selfReadingConfig reads the workspace's own stored state and adds
// var.who to the list of IDs it keeps, one terraform_data per ID: an apply
// that ran on a stale state (two at once) would drop another's ID.
const selfReadingConfig = `
variable "who" {
  type = string
}
data "terraform_remote_state" "self" {
  backend = "pg"
  config  = %s
}
locals {
  ids = sort(distinct(concat(data.terraform_remote_state.self.outputs.ids, [var.who])))
}
resource "terraform_data" "r" {
  for_each = toset(local.ids)
  input    = each.key
}
output "ids" {
  value = local.ids
}
`

// seedState is a state whose only content is the output ids = [].
const seedState = `{"version": 4, "terraform_version": "1.10.6", "serial": 1, "lineage": "5e6d0a4c-0000-4000-8000-000000000001",
 "outputs": {"ids": {"value": [], "type": ["list", "string"]}}, "resources": [], "check_results": null}`

type procResult struct {
	who            string
	shortTimeout   bool
	stdout, stderr string
	err            error
	elapsed        time.Duration
}

// TestBackendConcurrentApplies: many apply processes on one PostgreSQL
// workspace run one at a time. Those whose -lock-timeout runs out fail
// with the holder's lock info; the others all complete, and the final
// state holds every completed change.
func TestBackendConcurrentApplies(t *testing.T) {
	pg := pgSettings(t, pgSchema(t))
	dir := t.TempDir()
	cfgBlock := hclValue(objectOf(pg))
	writeMain(t, dir, backendBlock("pg", pg)+fmt.Sprintf(selfReadingConfig, cfgBlock))
	mustTenet(t, dir, nil, "init", "-no-color")
	if err := os.WriteFile(filepath.Join(dir, "seed.tfstate"), []byte(seedState), 0o644); err != nil {
		t.Fatal(err)
	}
	mustTenet(t, dir, nil, "state", "push", "seed.tfstate")

	n := stressSize(8, 20)
	short := n / 4
	// The test holds the lock while the processes start, so the ones
	// with a short -lock-timeout certainly meet a holder they can name.
	holder := openManager(t, "pg", pg, "default")
	holderID, d := holder.Lock(context.Background(), backend.NewLockInfo("OperationTypeApply"))
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	results := make([]procResult, n)
	var shortDone, all sync.WaitGroup
	bin := tenetBinary(t)
	for i := range n {
		r := &results[i]
		r.who = fmt.Sprintf("p%02d", i)
		r.shortTimeout = i < short
		timeout := "10m"
		if r.shortTimeout {
			timeout = "1s"
			shortDone.Add(1)
		}
		all.Add(1)
		go func() {
			defer all.Done()
			if r.shortTimeout {
				defer shortDone.Done()
			}
			cmd := exec.Command(bin, "apply", "-auto-approve", "-no-color", "-lock-timeout="+timeout, "-var", "who="+r.who)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "NO_COLOR=1")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			start := time.Now()
			r.err = cmd.Run()
			r.elapsed = time.Since(start)
			r.stdout, r.stderr = out.String(), errb.String()
		}()
	}
	shortDone.Wait()
	time.Sleep(500 * time.Millisecond) // let the patient ones queue up
	if d := holder.Unlock(context.Background(), holderID); d.HasErrors() {
		t.Fatal(d.Error())
	}
	all.Wait()

	var completed []string
	for _, r := range results {
		if r.shortTimeout {
			if r.err == nil {
				t.Errorf("%s with -lock-timeout=1s succeeded while the lock was held", r.who)
				continue
			}
			for _, want := range []string{"Error acquiring the state lock", "ID:        " + holderID, "Path:", "Operation: OperationTypeApply", "Who:", "Version:", "Created:"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("%s: the lock error lacks %q:\n%s", r.who, want, r.stderr)
				}
			}
			continue
		}
		if r.err != nil {
			t.Errorf("%s (-lock-timeout=10m) failed: %v\n%s\n%s", r.who, r.err, r.stdout, r.stderr)
			continue
		}
		completed = append(completed, r.who)
	}
	sort.Strings(completed)
	t.Logf("%d applies completed, %d timed out", len(completed), short)

	final := readBackendState(t, "pg", pg, "default")
	if final == nil || final.State.Modules[""] == nil {
		out, _, _ := tenetRun(t, dir, "", nil, "state", "pull")
		t.Fatalf("the final state has no resources: %+v\n%s\nlast apply:\n%s", final, out, results[n-1].stdout)
	}
	var keys []string
	for name, rs := range final.State.Modules[""].Resources {
		if name != "terraform_data.r" {
			continue // the data source reading the state
		}
		for k := range rs.Instances {
			keys = append(keys, k.String())
		}
	}
	want := make([]string, len(completed))
	for i, w := range completed {
		want[i] = "[" + strconv.Quote(w) + "]"
	}
	sort.Strings(keys)
	if !slices.Equal(keys, want) {
		t.Fatalf("the final state holds the instances %v, want one per completed apply %v", keys, want)
	}
	// Each completed apply wrote exactly once, after the seed (serial 1).
	if final.Serial != uint64(1+len(completed)) {
		t.Fatalf("final serial %d, want %d (the seed and one write per completed apply)", final.Serial, 1+len(completed))
	}
	var ids []string
	if err := json.Unmarshal(outputJSON(t, final, "ids"), &ids); err != nil || !slices.Equal(ids, completed) {
		t.Fatalf("output ids = %v (%v), want %v", ids, err, completed)
	}
}

// TestBackendParallelWorkspaces: many workspaces of one PostgreSQL
// backend, created and applied at the same time by separate processes,
// each end up with exactly their own state.
func TestBackendParallelWorkspaces(t *testing.T) {
	pg := pgSettings(t, pgSchema(t))
	n := stressSize(8, 50)
	base := t.TempDir()
	src := backendBlock("pg", pg) + `
resource "terraform_data" "w" {
  input = terraform.workspace
}
output "ws" {
  value = terraform_data.w.output
}
`
	writeMain(t, base, src)
	mustTenet(t, base, nil, "init", "-no-color")
	recorded, err := os.ReadFile(filepath.Join(base, ".terraform", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	errs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		dir := filepath.Join(base, fmt.Sprintf("d%02d", i))
		os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755)
		writeMain(t, dir, src)
		os.WriteFile(filepath.Join(dir, ".terraform", "terraform.tfstate"), recorded, 0o644)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := fmt.Sprintf("ws%02d", i)
			for _, args := range [][]string{
				{"workspace", "new", "-lock-timeout=5m", ws},
				{"apply", "-auto-approve", "-no-color", "-lock-timeout=5m"},
			} {
				if out, stderr, err := tenetRun(t, dir, "", nil, args...); err != nil {
					errs[i] = fmt.Sprintf("%s: tenet %s: %v\n%s\n%s", ws, strings.Join(args, " "), err, out, stderr)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	for i := range n {
		ws := fmt.Sprintf("ws%02d", i)
		f := readBackendState(t, "pg", pg, ws)
		if f == nil {
			t.Fatalf("workspace %s has no state", ws)
		}
		var got string
		if err := json.Unmarshal(outputJSON(t, f, "ws"), &got); err != nil || got != ws {
			t.Fatalf("workspace %s holds output ws = %q (%v)", ws, got, err)
		}
		count := 0
		if f.State.Modules[""] == nil {
			t.Fatalf("workspace %s has no resources", ws)
		}
		for name, rs := range f.State.Modules[""].Resources {
			if name != "terraform_data.w" {
				t.Fatalf("workspace %s holds %s", ws, name)
			}
			count += len(rs.Instances)
		}
		if count != 1 {
			t.Fatalf("workspace %s holds %d instances, want its own one", ws, count)
		}
	}
	out := mustTenet(t, base, nil, "workspace", "list")
	if got := strings.Count(out, "ws"); got != n {
		t.Fatalf("workspace list shows %d workspaces named ws*, want %d:\n%s", got, n, out)
	}
}

func objectOf(settings map[string]cty.Value) cty.Value { return cty.ObjectVal(settings) }

// outputJSON is a root output of a stored state as JSON.
func outputJSON(t *testing.T, f *statefile.File, name string) []byte {
	t.Helper()
	o := f.State.Outputs[name]
	if o == nil {
		t.Fatalf("the state has no output %q", name)
	}
	b, err := ctyjson.Marshal(o.Value, o.Value.Type())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
