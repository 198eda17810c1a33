package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/local"
)

// TestBackendKillDuringApply kills an apply against PostgreSQL with
// SIGKILL halfway. The database keeps the state from before the run and
// its lock goes with the dead session; every operation recorded before
// the kill is in the local working copy and its journal; the next apply
// continues from there, creates only what is missing and writes the whole
// state to the database.
func TestBackendKillDuringApply(t *testing.T) {
	pg := pgSettings(t, pgSchema(t))
	n := stressSize(300, 2000)
	dir := workdir(t, n)
	src, _ := os.ReadFile(filepath.Join(dir, "main.tf"))
	writeMain(t, dir, backendBlock("pg", pg)+string(src))
	mustTenet(t, dir, nil, "init", "-no-color")

	done := applyAndKill(t, dir, n/3, 2*time.Minute)
	if done < n/3 {
		t.Fatalf("the apply reported %d creations before dying, want %d", done, n/3)
	}
	if f := readBackendState(t, "pg", pg, "default"); f != nil && !f.State.Empty() {
		t.Fatalf("the database holds a state the killed run should not have written (serial %d)", f.Serial)
	}
	// The working copy starts as the stored state (none here) and its
	// journal, which holds what the run recorded.
	copies, _ := filepath.Glob(filepath.Join(dir, ".terraform", "tenet-remote", "pg-*-default.tfstate.journal"))
	if len(copies) != 1 {
		t.Fatalf("want the killed run's working copy journal, found %v", copies)
	}
	wc, err := local.Open(strings.TrimSuffix(copies[0], ".journal"), local.Options{}).Read()
	if err != nil {
		t.Fatalf("the working copy cannot be read after kill -9: %v", err)
	}
	recovered := map[string]bool{}
	if wc != nil {
		for _, ref := range wc.State.AllResourceInstances() {
			recovered[ref.Addr.String()] = true
		}
	}
	onDisk := 0
	for i := range n {
		addr := fmt.Sprintf("local_file.f[%d]", i)
		_, err := os.Stat(filepath.Join(dir, "out", fmt.Sprintf("f%d.txt", i)))
		exists := err == nil
		if exists {
			onDisk++
		}
		if recovered[addr] && !exists {
			t.Errorf("%s is in the working copy but its file does not exist", addr)
		}
	}
	if lost := onDisk - len(recovered); lost > applyParallelism {
		t.Fatalf("%d files exist but only %d are in the working copy: more than the %d operations that can be in flight were lost", onDisk, len(recovered), applyParallelism)
	}
	if len(recovered) < done-applyParallelism {
		t.Fatalf("the run reported %d creations but the working copy holds %d", done, len(recovered))
	}
	t.Logf("killed after %d reported creations; %d files on disk, %d recovered from the journal", done, onDisk, len(recovered))

	// The lock died with the session: the next run gets it at once.
	out, stderr, err := tenetRun(t, dir, "", nil, "apply", "-auto-approve", "-no-color", "-lock-timeout=0s")
	if err != nil {
		t.Fatalf("the apply after the kill failed: %v\n%s\n%s", err, out, stderr)
	}
	if !strings.Contains(out+stderr, "Continuing from an interrupted run") { // a warning: on stdout, as OpenTofu prints warnings
		t.Fatalf("the next run did not say it continues the interrupted one:\n%s", stderr)
	}
	m := regexp.MustCompile(`Resources: (\d+) added`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary:\n%s", out)
	}
	if added, _ := strconv.Atoi(m[1]); added != n-len(recovered) {
		t.Fatalf("the next run added %d, want exactly the %d missing from the working copy", added, n-len(recovered))
	}
	final := readBackendState(t, "pg", pg, "default")
	if got := len(final.State.AllResourceInstances()); got != n {
		t.Fatalf("the database holds %d instances after recovery, want %d", got, n)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".terraform", "tenet-remote", "*")); len(left) > 0 {
		t.Fatalf("the working copy was not removed after the recovered run: %v", left)
	}
}

// TestBackendLostConnectionKeepsErroredState ends the database session
// holding the lock while an apply runs. The apply refuses to write without
// its lock, keeps the state in errored.tfstate and says so; the stored
// state is untouched, and pushing errored.tfstate completes the run.
func TestBackendLostConnectionKeepsErroredState(t *testing.T) {
	schema := pgSchema(t)
	pg := pgSettings(t, schema)
	dir := t.TempDir()
	writeMain(t, dir, backendBlock("pg", pg)+`
resource "time_sleep" "s" {
  count           = 4
  create_duration = "4s"
}
`)
	mustTenet(t, dir, nil, "init", "-no-color")
	if err := os.WriteFile(filepath.Join(dir, "seed.tfstate"), []byte(seedState), 0o644); err != nil {
		t.Fatal(err)
	}
	mustTenet(t, dir, nil, "state", "push", "seed.tfstate")
	ctx := context.Background()
	conn := backendtest.PGConn(t)
	var rowID int64
	if err := conn.QueryRow(ctx, "SELECT id FROM "+pgx.Identifier{schema, "states"}.Sanitize()+" WHERE name = 'default'").Scan(&rowID); err != nil {
		t.Fatal(err)
	}

	cmd := tenetCmd(t, dir, "apply", "-auto-approve", "-no-color")
	var outb, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &outb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Find the session holding this workspace's advisory lock (the row's
	// id is the key) and end it, as a failing network or an administrator
	// would.
	terminated := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !terminated; time.Sleep(100 * time.Millisecond) {
		var n int
		err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = $1::bigint::oid AND objid = $2::bigint::oid`,
			int64(uint32(uint64(rowID)>>32)), int64(uint32(rowID))).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		terminated = n > 0
	}
	if !terminated {
		cmd.Process.Kill()
		t.Fatal("the apply never held the lock")
	}
	err := cmd.Wait()
	out, stderr := outb.String(), flat(errb.String())
	if err == nil {
		t.Fatalf("the apply succeeded although it lost its lock:\n%s\n%s", out, stderr)
	}
	for _, want := range []string{"Failed to save state", "errored.tfstate", "tenet state push errored.tfstate"} {
		if !strings.Contains(stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if f := readBackendState(t, "pg", pg, "default"); f.Serial != 1 || len(f.State.AllResourceInstances()) != 0 {
		t.Fatalf("the stored state changed without the lock: serial %d", f.Serial)
	}
	errored := readStateFile(t, filepath.Join(dir, "errored.tfstate"))
	if got := len(errored.State.AllResourceInstances()); got != 4 {
		t.Fatalf("errored.tfstate holds %d instances, want the 4 the apply created", got)
	}
	mustTenet(t, dir, nil, "state", "push", "errored.tfstate")
	if f := readBackendState(t, "pg", pg, "default"); len(f.State.AllResourceInstances()) != 4 {
		t.Fatal("pushing errored.tfstate did not store the applied state")
	}
	if out := mustTenet(t, dir, nil, "plan", "-no-color"); !strings.Contains(out, "No changes") {
		t.Fatalf("plan after pushing errored.tfstate:\n%s", out)
	}
}
