package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// The human-output goldens hold what OpenTofu 1.10.6 prints for a set of
// scenarios (../testdata/human/*.txtar), and this test checks that tenet
// prints the same, line for line, apart from the product name.
//
// A scenario's comment is its script, one step a line:
//
//	use DIR            replace the working directory's *.tf files with DIR's
//	run ARGS...        run the tool; it must exit 0; its output is not compared
//	golden ARGS...     run the tool and compare its exit status, stdout and
//	                   stderr with the next golden/NN section
//	state-set ADDR ATTR JSON
//	                   set an attribute of ADDR's (single) instance in
//	                   terraform.tfstate, standing for a change made outside
//	                   the tool (drift)
//	state-depose ADDR  make the current object of ADDR's (single) instance a
//	                   deposed object, as a create_before_destroy
//	                   replacement that failed half-way leaves it
//	real-time-provider use the real hashicorp/time plugin from the mirror
//	                   scripts/build-time-provider.sh builds (for resources
//	                   tenet's built-in time provider lacks); without the
//	                   mirror the scenario is skipped
//	rm FILE            remove a file
//	unordered-progress the scenario's apply progress lines ("Creating...",
//	                   "Destruction complete..." and the like) are compared
//	                   as a set within each run of them: independent
//	                   objects are applied concurrently, in no fixed order
//	stdin TEXT         the next golden step's standard input is TEXT and a
//	                   newline (an answer to a prompt); otherwise it is empty
//	known NN REASON    golden/NN differs for the reason given: its
//	                   difference is logged, not failed, and the test
//	                   fails once it matches, so the line gets removed
//
// Recording: TENET_RECORD_HUMAN_GOLDENS=/path/to/tofu makes the test run
// that binary instead of tenet and rewrite the golden sections (see
// scripts/record-human-goldens.sh). The recording needs the real
// hashicorp/time provider (the script builds a filesystem mirror of it);
// tenet's run uses its built-in time provider, so the test itself needs
// neither OpenTofu nor a download.

const recordHumanEnv = "TENET_RECORD_HUMAN_GOLDENS"

func TestHumanGoldens(t *testing.T) {
	tofu := os.Getenv(recordHumanEnv)
	eachScenario(t, "human", func(t *testing.T, self, file string) {
		if tofu != "" {
			recordHumanScenario(t, tofu, file)
			return
		}
		checkHumanScenario(t, self, file)
	})
}

// humanRun is one golden step's result.
type humanRun struct {
	args           string
	status         int
	stdout, stderr string
}

func (r humanRun) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\nexit status %d\n", r.args, r.status)
	b.WriteString("== stdout ==\n")
	b.WriteString(r.stdout)
	b.WriteString("== stderr ==\n")
	b.WriteString(r.stderr)
	return b.String()
}

// runHumanScript runs a scenario's script with tool (tenet when isTenet)
// and returns the golden steps' results, normalised.
func runHumanScript(t *testing.T, tool string, isTenet bool, ar *txtar.Archive) []humanRun {
	t.Helper()
	work := t.TempDir()
	files := map[string][]byte{}
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "golden/") {
			files[f.Name] = f.Data
		}
	}
	env := []string{
		"HOME=" + filepath.Join(work, ".home"),
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + os.TempDir(),
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=",
	}
	if isTenet {
		// No installation sources: the built-in time provider runs.
		env = append(env, runMainEnv+"=1", "TF_CLI_CONFIG_FILE=/dev/null")
	} else {
		env = append(env, "TF_CLI_CONFIG_FILE="+os.Getenv("TENET_RECORD_TF_CLI_CONFIG_FILE"))
	}
	var out []humanRun
	stdin := ""
	for i, raw := range strings.Split(string(ar.Comment), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		fail := func(err error) {
			t.Fatalf("script line %d: %s: %v", i+1, line, err)
		}
		switch fields[0] {
		case "use":
			if len(fields) != 2 {
				fail(errors.New("usage: use DIR"))
			}
			old, _ := filepath.Glob(filepath.Join(work, "*.tf"))
			for _, p := range old {
				os.Remove(p)
			}
			prefix := strings.TrimSuffix(fields[1], "/") + "/"
			for name, data := range files {
				if rest, ok := strings.CutPrefix(name, prefix); ok {
					if err := os.MkdirAll(filepath.Dir(filepath.Join(work, rest)), 0o755); err != nil {
						fail(err)
					}
					if err := os.WriteFile(filepath.Join(work, rest), data, 0o644); err != nil {
						fail(err)
					}
				}
			}
		case "real-time-provider":
			if isTenet {
				mirror, err := filepath.Abs(filepath.Join("..", ".cache", "time-provider", "mirror"))
				if err != nil {
					fail(err)
				}
				if _, err := os.Stat(mirror); err != nil {
					t.Skip("needs the real hashicorp/time plugin: run scripts/build-time-provider.sh")
				}
				rc := filepath.Join(t.TempDir(), "tenetrc")
				text := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
				if err := os.WriteFile(rc, []byte(text), 0o644); err != nil {
					fail(err)
				}
				env = append(env, "TF_CLI_CONFIG_FILE="+rc) // the last one counts
			}
		case "known", "unordered-progress":
			// Read by checkHumanScenario and normaliseHuman.
		case "state-depose":
			if len(fields) != 2 {
				fail(errors.New("usage: state-depose ADDR"))
			}
			if err := editStateInstances(filepath.Join(work, "terraform.tfstate"), fields[1], func(inst map[string]any) {
				inst["deposed"] = "1a2b3c4d"
			}); err != nil {
				fail(err)
			}
		case "stdin":
			stdin = strings.Join(fields[1:], " ") + "\n"
		case "rm":
			if err := os.RemoveAll(filepath.Join(work, fields[1])); err != nil {
				fail(err)
			}
		case "state-set":
			if len(fields) < 4 {
				fail(errors.New("usage: state-set ADDR ATTR JSON"))
			}
			var value any
			if err := json.Unmarshal([]byte(strings.Join(fields[3:], " ")), &value); err != nil {
				fail(fmt.Errorf("value: %w", err))
			}
			if err := editStateInstances(filepath.Join(work, "terraform.tfstate"), fields[1], func(inst map[string]any) {
				inst["attributes"].(map[string]any)[fields[2]] = value
			}); err != nil {
				fail(err)
			}
		case "run", "golden":
			r := runHumanTool(t, tool, work, env, stdin, fields[1:])
			stdin = ""
			if fields[0] == "run" {
				if r.status != 0 {
					fail(fmt.Errorf("exit status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.stdout, r.stderr))
				}
				continue
			}
			r.args = strings.Join(fields[1:], " ")
			r.stdout = normaliseHuman(r.stdout, work, unorderedProgress(ar))
			r.stderr = normaliseHuman(r.stderr, work, unorderedProgress(ar))
			out = append(out, r)
		default:
			fail(errors.New("unknown step"))
		}
	}
	return out
}

func runHumanTool(t *testing.T, tool, dir string, env []string, stdin string, args []string) humanRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scriptCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := humanRun{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.status = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}

// Normalisations, applied to both tools' output: only what legitimately
// differs between two runs.
var (
	// terraform_data ids are random UUIDs.
	uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// How long an operation took depends on the machine.
	elapsedPattern = regexp.MustCompile(`(complete|errored) after [0-9hms.]+`)
	// Deposed objects' keys are random.
	deposedPattern = regexp.MustCompile(`deposed object [0-9a-f]{8}`)
)

func normaliseHuman(s, work string, unordered bool) string {
	s = strings.ReplaceAll(s, work, "$WORK")
	s = uuidPattern.ReplaceAllString(s, "<uuid>")
	s = elapsedPattern.ReplaceAllString(s, "$1 after <elapsed>")
	s = deposedPattern.ReplaceAllString(s, "deposed object <key>")
	s = sortRefreshLines(s)
	if unordered {
		s = sortLineRuns(s, progressPattern.MatchString)
	}
	return s
}

var progressPattern = regexp.MustCompile(`: (Creating|Creation complete|Modifying|Modifications complete|Destroying|Destruction complete|Reading|Read complete)`)

// unorderedProgress reports whether a scenario's script has the
// unordered-progress step.
func unorderedProgress(ar *txtar.Archive) bool {
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if strings.TrimSpace(line) == "unordered-progress" {
			return true
		}
	}
	return false
}

// sortRefreshLines sorts each run of "Refreshing state..." lines: objects
// are refreshed concurrently, so their order varies from run to run.
func sortRefreshLines(s string) string {
	return sortLineRuns(s, func(l string) bool { return strings.Contains(l, ": Refreshing state...") })
}

// sortLineRuns sorts each run of consecutive lines that match. In colour,
// the first line of a run may start with a reset left by the text before
// it; that reset stays at the start of the run.
func sortLineRuns(s string, isRefresh func(string) bool) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && isRefresh(lines[j]) {
			j++
		}
		if j > i {
			lead := ""
			if j-i > 1 && strings.HasPrefix(lines[i], ansiReset+ansiReset) && !strings.HasPrefix(lines[i+1], ansiReset+ansiReset) {
				lead, lines[i] = ansiReset, lines[i][len(ansiReset):]
			}
			sort.Strings(lines[i:j])
			lines[i] = lead + lines[i]
			i = j
		} else {
			i++
		}
	}
	return strings.Join(lines, "\n")
}

const ansiReset = "\x1b[0m"

// productName turns OpenTofu's wording into tenet's: the product name and
// its command name in suggested command lines.
var productName = strings.NewReplacer(
	"OpenTofu", "tenet",
	`"tofu `, `"tenet `,
	"  tofu ", "  tenet ",
	"`tofu ", "`tenet ",
)

func checkHumanScenario(t *testing.T, self, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "golden/") {
			want[f.Name] = sortRefreshLines(productName.Replace(string(f.Data)))
			if unorderedProgress(ar) {
				want[f.Name] = sortLineRuns(want[f.Name], progressPattern.MatchString)
			}
		}
	}
	known := map[string]string{}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "known" {
			known["golden/"+f[1]] = strings.Join(f[2:], " ")
		}
	}
	runs := runHumanScript(t, self, true, ar)
	if len(runs) != len(want) {
		t.Fatalf("%d golden steps ran, the archive has %d golden sections: rerecord with scripts/record-human-goldens.sh", len(runs), len(want))
	}
	for i, r := range runs {
		name := goldenName(i)
		got := r.text()
		if reason, ok := known[name]; ok {
			if got == want[name] {
				t.Errorf("%s (%s) matches OpenTofu's output now: remove its 'known' line (%s)", name, r.args, reason)
			} else {
				t.Logf("%s (%s): known difference, %s:\n%s", name, r.args, reason, lineDiff(want[name], got))
			}
			continue
		}
		if got != want[name] {
			t.Errorf("%s (%s): tenet's output differs from OpenTofu's (-OpenTofu +tenet):\n%s", name, r.args, lineDiff(want[name], got))
		}
	}
}

func goldenName(i int) string { return fmt.Sprintf("golden/%02d", i+1) }

func recordHumanScenario(t *testing.T, tofu, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	runs := runHumanScript(t, tofu, false, ar)
	var kept []txtar.File
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "golden/") {
			kept = append(kept, f)
		}
	}
	for i, r := range runs {
		kept = append(kept, txtar.File{Name: goldenName(i), Data: []byte(r.text())})
	}
	ar.Files = kept
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editStateInstances edits a state file (format 4) in place: edit changes
// each instance object of the resource at addr (root module).
func editStateInstances(path, addr string, edit func(inst map[string]any)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	typ, name, _ := strings.Cut(addr, ".")
	found := false
	resources, _ := st["resources"].([]any)
	for _, r := range resources {
		r := r.(map[string]any)
		if r["type"] != typ || r["name"] != name || r["mode"] != "managed" {
			continue
		}
		for _, inst := range r["instances"].([]any) {
			edit(inst.(map[string]any))
			found = true
		}
	}
	if !found {
		return fmt.Errorf("no resource %s in the state", addr)
	}
	serial, _ := st["serial"].(float64)
	st["serial"] = serial + 1
	out, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// lineDiff is a unified-style listing of the lines that differ, with a
// line of context around each change.
func lineDiff(want, got string) string {
	x, y := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j]: length of the longest common subsequence of x[i:], y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i]})
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			lines = append(lines, line{'+', y[j]})
			j++
		default:
			lines = append(lines, line{'-', x[i]})
			i++
		}
	}
	var b strings.Builder
	skipped := false
	for k, l := range lines {
		near := l.op != ' ' || (k > 0 && lines[k-1].op != ' ') || (k+1 < len(lines) && lines[k+1].op != ' ')
		if !near {
			skipped = true
			continue
		}
		if skipped {
			b.WriteString("  ...\n")
			skipped = false
		}
		fmt.Fprintf(&b, "%c %s\n", l.op, l.text)
	}
	return b.String()
}
