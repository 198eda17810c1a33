package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The conformance test replays the scenarios recorded from OpenTofu 1.10.6
// (testdata/conformance/scenarios, copied from shared/conformance) with a
// freshly built tenet, the same way shared/conformance/replay.sh and lib.py
// do, and compares plans, apply orders, failing phases and step exit
// statuses. TENET_CONFORMANCE=DIR adds another directory of scenarios;
// TENET_BIN=PATH replays with that binary instead of building one.

// knownFailing lists the scenarios that do not pass yet, with the work that
// will make them pass. A scenario listed here is replayed and reported but
// does not fail the test; once it passes, the test fails until it is removed
// from this list, so the list stays honest. Shrink it.
var knownFailing = map[string]string{
	// "NNN-scenario-name": "what will make it pass (issue N)",
}

// issue2Scenarios are the scenario numbers that issue 2 (plan and apply the
// Terraform language end to end) requires to pass, where present.
var issue2Scenarios = []string{
	"001", "002", "003", "004", "005", "006", "007", "008", "011", "013",
	"015", "016", "018", "020", "021", "022", "023", "024", "025", "026",
	"027", "053", "054", "092", "093", "100", "101", "102", "103", "104",
	"106", "108", "110", "111", "112", "113", "114", "115", "116", "117",
	"118", "130", "131", "133",
}

const conformanceCommandTimeout = 2 * time.Minute

func TestConformance(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "conformance", "scenarios", "*"))
	if err != nil {
		t.Fatal(err)
	}
	type scenario struct{ name, dir string }
	var all []scenario
	for _, d := range dirs {
		all = append(all, scenario{filepath.Base(d), d})
	}
	if extra := os.Getenv("TENET_CONFORMANCE"); extra != "" {
		more, err := filepath.Glob(filepath.Join(extra, "*", "steps"))
		if err != nil || len(more) == 0 {
			t.Fatalf("TENET_CONFORMANCE=%s holds no scenarios", extra)
		}
		for _, s := range more {
			d := filepath.Dir(s)
			all = append(all, scenario{"extra/" + filepath.Base(d), d})
		}
	}
	if len(all) == 0 {
		t.Fatal("no conformance scenarios under testdata/conformance/scenarios")
	}
	present := map[string]bool{}
	for _, sc := range all {
		present[filepath.Base(sc.name)] = true
	}
	checkKnownFailingNames(t, present)

	bin := tenetBinary(t)
	extraEnv := timeProviderMirror(t)
	// t.Parallel runs up to -parallel (GOMAXPROCS by default) scenarios at
	// once; the semaphore caps that when -parallel is raised, since every
	// scenario runs a chain of child processes.
	sem := make(chan struct{}, max(2, runtime.NumCPU()*2))
	var passed, failed, known atomic.Int32
	t.Cleanup(func() {
		t.Logf("conformance summary: %d pass, %d fail, %d known failing", passed.Load(), failed.Load(), known.Load())
	})
	for _, sc := range all {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			problems, logs := replayScenario(t, bin, sc.dir, extraEnv)
			reason, isKnown := knownFailing[filepath.Base(sc.name)]
			switch {
			case isKnown && len(problems) > 0:
				known.Add(1)
				t.Skipf("known failing (%s):\n%s\n--- last commands ---\n%s", reason, strings.Join(problems, "\n"), tail([]byte(logs), 12))
			case isKnown:
				passed.Add(1)
				t.Errorf("scenario %s passes now: remove it from knownFailing in conformance_test.go", filepath.Base(sc.name))
			case len(problems) > 0:
				failed.Add(1)
				t.Errorf("scenario differs from OpenTofu:\n%s\n--- command output ---\n%s", strings.Join(problems, "\n"), logs)
			default:
				passed.Add(1)
			}
		})
	}
}

// timeProviderMirror, when TENET_TIME_PROVIDER names a hashicorp/time
// v0.14.2 executable (scripts/build-time-provider.sh builds one), puts it
// in a filesystem mirror and returns the environment that makes init
// install it from there, as the OpenTofu recordings were made; tenet then
// runs the real plugin instead of its built-in time provider. Without the
// variable the scenarios run with the built-in.
func timeProviderMirror(t *testing.T) []string {
	exe := os.Getenv("TENET_TIME_PROVIDER")
	if exe == "" {
		return nil
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		t.Fatalf("TENET_TIME_PROVIDER=%s is not an executable file (build one with scripts/build-time-provider.sh)", exe)
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "mirror", "registry.opentofu.org", "hashicorp", "time", "0.14.2", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(pkg, "terraform-provider-time_v0.14.2")); err != nil {
		t.Fatal(err)
	}
	tfrc := filepath.Join(dir, "cli.tfrc")
	src := fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.opentofu.org/hashicorp/time"]
  }
  direct { exclude = ["registry.opentofu.org/hashicorp/time"] }
}
`, filepath.Join(dir, "mirror"))
	if err := os.WriteFile(tfrc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("hashicorp/time comes from %s", abs)
	return []string{"TF_CLI_CONFIG_FILE=" + tfrc}
}

// checkKnownFailingNames keeps the known-failing list tied to real scenarios.
func checkKnownFailingNames(t *testing.T, present map[string]bool) {
	t.Helper()
	for name := range knownFailing {
		if !present[name] {
			t.Errorf("knownFailing names %q, which is not a scenario: remove it", name)
		}
	}
}

// TestConformanceIssue2Coverage makes sure the scenarios issue 2 requires
// are present in testdata and only listed as known failing with a reason
// that names issue 2, so they cannot silently slip onto the list.
func TestConformanceIssue2Coverage(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "conformance", "scenarios", "*"))
	present := map[string]string{}
	for _, d := range dirs {
		b := filepath.Base(d)
		present[b[:3]] = b
	}
	found := 0
	for _, n := range issue2Scenarios {
		name, ok := present[n]
		if !ok {
			continue
		}
		found++
		if reason, bad := knownFailing[name]; bad && !strings.Contains(reason, "issue 2") {
			t.Errorf("%s is required by issue 2 but listed as known failing for %q", name, reason)
		}
	}
	if found < 25 {
		t.Errorf("only %d of issue 2's scenarios are in testdata/conformance/scenarios; copy them from shared/conformance", found)
	}
}

// tempBuild builds programs into a temporary directory once per test
// process; TestMain removes the directory.
type tempBuild struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// do runs build in a new directory (named after prefix) the first time,
// and fails tb, saying what failed, whenever that build did.
func (b *tempBuild) do(tb testing.TB, prefix, what string, build func(dir string) ([]byte, error)) string {
	tb.Helper()
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", prefix); b.err == nil {
			b.out, b.err = build(b.dir)
		}
	})
	if b.err != nil {
		tb.Fatalf("%s: %v\n%s", what, b.err, b.out)
	}
	return b.dir
}

func (b *tempBuild) remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

var tenetBuild tempBuild

// tenetBinary builds tenet once per test process, or uses TENET_BIN.
func tenetBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TENET_BIN"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	dir := tenetBuild.do(t, "tenet-conformance-bin", "go build", func(dir string) ([]byte, error) {
		return exec.Command("go", "build", "-o", filepath.Join(dir, "tenet"), ".").CombinedOutput()
	})
	return filepath.Join(dir, "tenet")
}

func TestMain(m *testing.M) {
	code := m.Run()
	tenetBuild.remove()
	startupRefBuild.remove()
	os.Exit(code)
}

// recorded is what one recorded step produced, the equivalent of the files
// replay.sh writes (plan.json, order.txt, errors.txt).
type recorded struct {
	plan     map[string]any // trimmed plan; nil when no plan was shown
	order    []string       // apply operations; nil when no apply ran
	phase    string         // "phase: plan" / "phase: apply" when it failed
	errors   []string       // error summaries, for the report
	hasOrder bool
}

// replayer runs the steps of one scenario in one working directory.
type replayer struct {
	bin  string
	work string
	env  []string
	logs bytes.Buffer
}

// run executes tenet in the working directory; it returns the exit status
// and the combined output.
func (r *replayer) run(args ...string) (int, []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), conformanceCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, args...)
	cmd.Dir = r.work
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	rc := 0
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			rc = ee.ExitCode()
		} else {
			rc = -1
			out = append(out, []byte("\n"+err.Error())...)
		}
	}
	if ctx.Err() != nil {
		out = append(out, []byte(fmt.Sprintf("\n(timed out after %s)", conformanceCommandTimeout))...)
	}
	fmt.Fprintf(&r.logs, "$ tenet %s  (exit %d)\n", strings.Join(args, " "), rc)
	r.logs.Write(tail(out, 40))
	if len(out) > 0 && out[len(out)-1] != '\n' {
		r.logs.WriteByte('\n')
	}
	return rc, out
}

func tail(b []byte, lines int) []byte {
	n := 0
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' && i != len(b)-1 {
			n++
			if n == lines {
				return b[i+1:]
			}
		}
	}
	return b
}

// replayScenario replays a scenario and returns the differences from what
// OpenTofu recorded (none when it passes) and the commands' output.
func replayScenario(t *testing.T, bin, scen string, extraEnv []string) ([]string, string) {
	tmp := t.TempDir()
	r := &replayer{bin: bin, work: filepath.Join(tmp, "work")}
	// TF_CLI_CONFIG_FILE=/dev/null: the user's CLI configuration (or a
	// missing one, which tenet warns about on stderr) is not the scenario's.
	r.env = append(os.Environ(), "TF_INPUT=0", "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	r.env = append(r.env, extraEnv...)
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		t.Fatal(err)
	}
	steps, err := filepath.Glob(filepath.Join(scen, "steps", "*"))
	if err != nil || len(steps) == 0 {
		t.Fatalf("scenario %s has no steps", scen)
	}
	sort.Strings(steps)
	last := filepath.Base(steps[len(steps)-1])
	results := map[string]*recorded{}
	var stepLines []string
	for _, s := range steps {
		n := filepath.Base(s)
		if err := swapConfig(r.work, s); err != nil {
			t.Fatal(err)
		}
		r.run("init", "-no-color")
		if lines, err := readLines(filepath.Join(s, "taint")); err == nil {
			for _, a := range lines {
				if a != "" {
					r.run("taint", "-no-color", a)
				}
			}
		}
		cmdLines, err := readLines(filepath.Join(s, "cmd"))
		if err != nil || len(cmdLines) == 0 {
			t.Fatalf("step %s: no cmd", s)
		}
		cmdLine := cmdLines[0]
		args := strings.Fields(cmdLine)
		var rc int
		if n == last || strings.HasPrefix(cmdLine, "plan") {
			key := ""
			if n != last {
				key = n
			}
			res := &recorded{}
			rc = r.recordStep(res, args)
			results[key] = res
		} else {
			rc, _ = r.run(append(args, "-no-color")...)
		}
		stepLines = append(stepLines, fmt.Sprintf("%s rc=%d %s", n, rc, cmdLine))
	}
	return compareWithExpected(filepath.Join(scen, "expected"), stepLines, results), r.logs.String()
}

// swapConfig replaces the previous step's configuration with the step's
// files; state files, .terraform and saved plans (*.bin) stay.
func swapConfig(work, step string) error {
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "terraform.tfstate") || name == ".terraform" ||
			name == ".terraform.lock.hcl" || strings.HasSuffix(name, ".bin") {
			continue
		}
		if err := os.RemoveAll(filepath.Join(work, name)); err != nil {
			return err
		}
	}
	if err := os.CopyFS(work, os.DirFS(step)); err != nil {
		return err
	}
	for _, f := range []string{"cmd", "taint", "state.json"} {
		os.Remove(filepath.Join(work, f))
	}
	if data, err := os.ReadFile(filepath.Join(step, "state.json")); err == nil {
		if err := os.WriteFile(filepath.Join(work, "terraform.tfstate"), data, 0o644); err != nil {
			return err
		}
	}
	// Files copied from a read-only tree stay writable for the next step.
	// .terraform is init's, with its executable provider packages.
	return filepath.WalkDir(work, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".terraform" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
}

// recordStep runs a plan or apply step the way replay.sh's run_recorded
// does: plan -json -out, show -json, then apply -json -parallelism=1 from
// the saved plan.
func (r *replayer) recordStep(res *recorded, argv []string) int {
	verb, rest := argv[0], argv[1:]
	var args []string
	outFile, planFile := "", ""
	for _, a := range rest {
		switch {
		case a == "-auto-approve":
		case strings.HasPrefix(a, "-out="):
			outFile = strings.TrimPrefix(a, "-out=")
		case strings.HasPrefix(a, "-"):
			args = append(args, a)
		default:
			planFile = a
		}
	}
	if verb != "plan" && verb != "apply" {
		rc, _ := r.run(append(slices.Clone(argv), "-no-color")...)
		return rc
	}
	var rawPlan map[string]any
	if planFile == "" {
		rc, out := r.run(append([]string{"plan", "-json", "-out=.oracle.bin"}, args...)...)
		if rc != 0 {
			res.phase = "phase: plan"
			res.errors = diagnosticSummaries(out, "error")
			return rc
		}
		rc, shown := r.run("show", "-json", ".oracle.bin")
		if rc != 0 {
			// The runner would trim an empty document and fail on it.
			res.plan = map[string]any{"(show -json failed)": string(tail(shown, 5))}
		} else if err := json.Unmarshal(shown, &rawPlan); err != nil {
			res.plan = map[string]any{"(show -json is not JSON)": err.Error()}
		} else {
			res.plan = trimPlan(rawPlan)
		}
		if outFile != "" {
			if data, err := os.ReadFile(filepath.Join(r.work, ".oracle.bin")); err == nil {
				os.WriteFile(filepath.Join(r.work, outFile), data, 0o644)
			}
		}
		if verb == "plan" {
			return 0
		}
		planFile = ".oracle.bin"
	}
	rc, out := r.run("apply", "-json", "-parallelism=1", planFile)
	res.order = applyOrder(out, rawPlan)
	res.hasOrder = true
	if rc != 0 {
		res.phase = "phase: apply"
		res.errors = diagnosticSummaries(out, "error")
	}
	return rc
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, strings.TrimSpace(sc.Text()))
	}
	return lines, sc.Err()
}

// nonEmptyLines reads a file's non-blank lines; a missing file has none.
func nonEmptyLines(path string) []string {
	lines, _ := readLines(path)
	out := lines[:0]
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

var rcFailure = regexp.MustCompile(`rc=[1-9][0-9]*|rc=-1`)

// compareWithExpected checks what the replay produced against expected/,
// like shared/conformance/run.
func compareWithExpected(exp string, steps []string, results map[string]*recorded) []string {
	var problems []string
	status := func(lines []string) string {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(rcFailure.ReplaceAllString(l, "rc=fail"))
			b.WriteString(";")
		}
		return b.String()
	}
	if want, got := status(nonEmptyLines(filepath.Join(exp, "steps.txt"))), status(steps); want != got {
		problems = append(problems, fmt.Sprintf("step exit status: expected %s got %s", want, got))
	}
	dirs := []string{""}
	subs, _ := filepath.Glob(filepath.Join(exp, "[0-9]*"))
	for _, s := range subs {
		if fi, err := os.Stat(s); err == nil && fi.IsDir() {
			dirs = append(dirs, filepath.Base(s))
		}
	}
	for _, sub := range dirs {
		d := filepath.Join(exp, sub)
		got := results[sub]
		if got == nil {
			got = &recorded{}
		}
		label := "plan"
		if sub != "" {
			label = "plan of step " + sub
		}
		if data, err := os.ReadFile(filepath.Join(d, "plan.json")); err == nil {
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				problems = append(problems, fmt.Sprintf("%s/plan.json: %v", d, err))
			} else if got.plan == nil {
				problems = append(problems, label+": no plan was produced")
			} else if diff := cmp.Diff(want, got.plan); diff != "" {
				problems = append(problems, fmt.Sprintf("%s differs (-OpenTofu +tenet):\n%s", label, diff))
			}
		}
		if lines := nonEmptyLines(filepath.Join(d, "errors.txt")); len(lines) > 0 {
			if lines[0] != got.phase {
				problems = append(problems, fmt.Sprintf("expected failure in %s; got %q %v", lines[0], got.phase, got.errors))
			}
		}
		if _, err := os.Stat(filepath.Join(d, "order.txt")); err == nil {
			want := nonEmptyLines(filepath.Join(d, "order.txt"))
			pairs := nonEmptyLines(filepath.Join(d, "pairs.txt"))
			problems = append(problems, checkOrder(want, pairs, got.order)...)
		}
	}
	return problems
}

// checkOrder requires the same multiset of operations and every forced
// pair ("A < B") to hold in the actual order.
func checkOrder(want, pairs, got []string) []string {
	var problems []string
	ws, gs := slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got))
	if !slices.Equal(ws, gs) {
		problems = append(problems, fmt.Sprintf("apply operations differ: missing %q, extra %q", multisetMinus(ws, gs), multisetMinus(gs, ws)))
	}
	pos := make(map[string]int, len(got))
	for i, op := range got {
		pos[op] = i
	}
	for _, line := range pairs {
		if strings.HasPrefix(line, "#") {
			continue
		}
		a, b, ok := strings.Cut(line, " < ")
		if !ok {
			continue
		}
		pa, okA := pos[a]
		pb, okB := pos[b]
		if okA && okB && pa > pb {
			problems = append(problems, fmt.Sprintf("forced order violated: %s must come before %s (tenet order: %q)", a, b, got))
		}
	}
	return problems
}

// multisetMinus returns the elements of sorted a that sorted b lacks.
func multisetMinus(a, b []string) []string {
	var out []string
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			j++
			continue
		}
		out = append(out, x)
	}
	return out
}

var (
	uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timePattern = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
)

const unknownMarker = "(known after apply)"

// normValue masks random ids and timestamps in strings.
func normValue(v any) any {
	switch v := v.(type) {
	case string:
		return timePattern.ReplaceAllString(uuidPattern.ReplaceAllString(v, "<id>"), "<time>")
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normValue(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = normValue(x)
		}
		return out
	}
	return v
}

// renderValue shows a planned value with its unknown parts replaced by a
// marker, as lib.py's render does.
func renderValue(val, unk any) any {
	if b, ok := unk.(bool); ok && b {
		return unknownMarker
	}
	switch v := val.(type) {
	case map[string]any:
		u, _ := unk.(map[string]any)
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = renderValue(x, u[k])
		}
		for k, x := range u {
			if _, ok := v[k]; !ok {
				out[k] = renderValue(nil, x)
			}
		}
		return out
	case []any:
		u, _ := unk.([]any)
		out := make([]any, len(v))
		for i, x := range v {
			var ux any
			if i < len(u) {
				ux = u[i]
			}
			out[i] = renderValue(x, ux)
		}
		return out
	}
	return normValue(val)
}

// truthy is Python truthiness for decoded JSON.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return true
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// trimPlan builds the tool-neutral plan summary of shared/conformance
// lib.py's trim from a `show -json` document.
func trimPlan(plan map[string]any) map[string]any {
	out := map[string]any{}
	for _, rcv := range asList(plan["resource_changes"]) {
		rc := asMap(rcv)
		key, _ := rc["address"].(string)
		if truthy(rc["deposed"]) {
			key += fmt.Sprintf(" (deposed %v)", rc["deposed"])
		}
		ch := asMap(rc["change"])
		v := map[string]any{"actions": ch["actions"]}
		for _, f := range []string{"action_reason", "previous_address"} {
			if truthy(rc[f]) {
				v[f] = rc[f]
			}
		}
		if truthy(ch["importing"]) {
			v["importing"] = true
		}
		if after, ok := ch["after"].(map[string]any); ok && rc["type"] == "terraform_data" {
			unk := asMap(ch["after_unknown"])
			for _, attr := range []string{"input", "triggers_replace"} {
				if after[attr] != nil || truthy(unk[attr]) {
					v[attr] = renderValue(after[attr], unk[attr])
				}
			}
		}
		out[key] = v
	}
	for _, rcv := range asList(plan["resource_drift"]) {
		rc := asMap(rcv)
		v := map[string]any{"actions": asMap(rc["change"])["actions"]}
		if truthy(rc["previous_address"]) {
			v["previous_address"] = rc["previous_address"]
		}
		out[fmt.Sprintf("drift %v", rc["address"])] = v
	}
	for name, ocv := range asMap(plan["output_changes"]) {
		oc := asMap(ocv)
		out["output."+name] = map[string]any{
			"actions": oc["actions"],
			"value":   renderValue(oc["after"], oc["after_unknown"]),
		}
	}
	return out
}

// jsonMessages decodes the JSON lines of a -json command's output,
// skipping lines that are not JSON.
func jsonMessages(out []byte) []map[string]any {
	var msgs []map[string]any
	for _, line := range bytes.Split(out, []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(line, &m) == nil {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// applyOrder lists the operations an apply started, from its apply_start
// messages, marking deletions of deposed objects the way lib.py's order
// does (the JSON stream does not say which object a delete is for).
func applyOrder(out []byte, plan map[string]any) []string {
	deposedPlanned, deposedIDs, currentDelete := map[string]bool{}, map[any]bool{}, map[string]bool{}
	for _, rcv := range asList(plan["resource_changes"]) {
		rc := asMap(rcv)
		addr, _ := rc["address"].(string)
		ch := asMap(rc["change"])
		if truthy(rc["deposed"]) {
			deposedPlanned[addr] = true
			deposedIDs[asMap(ch["before"])["id"]] = true
		} else if slices.Contains(asList(ch["actions"]), any("delete")) {
			currentDelete[addr] = true
		}
	}
	seen := []string{}
	has := map[string]bool{}
	for _, m := range jsonMessages(out) {
		if m["type"] != "apply_start" {
			continue
		}
		h := asMap(m["hook"])
		addr := fmt.Sprint(asMap(h["resource"])["addr"])
		act := fmt.Sprint(h["action"])
		op := act + " " + addr
		id := h["id_value"]
		if act == "delete" && ((truthy(id) && deposedIDs[id]) ||
			has["create "+addr] ||
			(deposedPlanned[addr] && !truthy(id) && (!currentDelete[addr] || has[op]))) {
			op += " (deposed)"
		}
		seen = append(seen, op)
		has[op] = true
	}
	return seen
}

// diagnosticSummaries lists the distinct summaries of the diagnostics of a
// level in a -json command's output.
func diagnosticSummaries(out []byte, level string) []string {
	var res []string
	seen := map[string]bool{}
	for _, m := range jsonMessages(out) {
		d := asMap(m["diagnostic"])
		if m["type"] != "diagnostic" || d == nil || d["severity"] != level {
			continue
		}
		msg := fmt.Sprintf("%s: %v", level, d["summary"])
		if where, _ := d["address"].(string); where != "" {
			msg += " (" + where + ")"
		}
		if !seen[msg] {
			seen[msg] = true
			res = append(res, msg)
		}
	}
	if len(res) == 0 && len(out) > 0 {
		res = append(res, "(no JSON diagnostics) "+string(tail(out, 3)))
	}
	return res
}

// TestReplayHelpers checks the Go versions of lib.py's trim and order
// against lib.py's own output on the same input (testdata/conformance/lib,
// made with `lib.py trim plan.json` and `lib.py order apply.jsonl plan.json`).
func TestReplayHelpers(t *testing.T) {
	dir := filepath.Join("testdata", "conformance", "lib")
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var raw, wantTrim map[string]any
	if err := json.Unmarshal(read("plan.json"), &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(read("trim.json"), &wantTrim); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantTrim, trimPlan(raw)); diff != "" {
		t.Errorf("trimPlan differs from lib.py trim (-lib.py +Go):\n%s", diff)
	}
	wantOrder := strings.Fields(strings.ReplaceAll(string(read("order.txt")), " ", "_"))
	gotOrder := applyOrder(read("apply.jsonl"), raw)
	for i := range gotOrder {
		gotOrder[i] = strings.ReplaceAll(gotOrder[i], " ", "_")
	}
	if diff := cmp.Diff(wantOrder, gotOrder); diff != "" {
		t.Errorf("applyOrder differs from lib.py order (-lib.py +Go):\n%s", diff)
	}
}

func TestCheckOrder(t *testing.T) {
	pairs := []string{"create a < delete a (deposed)", "# a comment", "update b < update c"}
	tests := []struct {
		name      string
		want, got []string
		problems  int
	}{
		{"same sequence", []string{"create a", "delete a (deposed)"}, []string{"create a", "delete a (deposed)"}, 0},
		{"other sequence, pairs hold", []string{"update b", "create a", "update c"}, []string{"create a", "update b", "update c"}, 0},
		{"forced pair violated", []string{"create a", "delete a (deposed)"}, []string{"delete a (deposed)", "create a"}, 1},
		{"missing operation", []string{"create a", "update b"}, []string{"create a"}, 1},
		{"duplicate operation", []string{"update b"}, []string{"update b", "update b"}, 1},
		{"nothing applied", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkOrder(tt.want, pairs, tt.got); len(got) != tt.problems {
				t.Errorf("checkOrder = %q, want %d problems", got, tt.problems)
			}
		})
	}
}
