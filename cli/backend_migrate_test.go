package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backendtest"
)

const migrateResources = `
resource "terraform_data" "a" {
  input = terraform.workspace
}
`

// localWorkspacesApplied makes a directory whose local state has the
// default workspace and "dev", each with one resource.
func localWorkspacesApplied(t *testing.T, withDev bool) string {
	dir := t.TempDir()
	writeMain(t, dir, migrateResources)
	mustTenet(t, dir, nil, "init")
	mustTenet(t, dir, nil, "apply", "-auto-approve")
	if withDev {
		mustTenet(t, dir, nil, "workspace", "new", "dev")
		mustTenet(t, dir, nil, "apply", "-auto-approve")
		mustTenet(t, dir, nil, "workspace", "select", "default")
	}
	return dir
}

// TestBackendMigrateState copies every workspace from the local backend to
// PostgreSQL and from there to S3, asking as OpenTofu asks.
func TestBackendMigrateState(t *testing.T) {
	needS3(t)
	schema := pgSchema(t)
	pg := pgSettings(t, schema)
	s3 := s3Settings(t, randomName("mig-")+"/terraform.tfstate")
	dir := localWorkspacesApplied(t, true)
	wantDefault := readStateFile(t, filepath.Join(dir, "terraform.tfstate"))
	wantDev := readStateFile(t, filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate"))

	writeMain(t, dir, backendBlock("pg", pg)+migrateResources)
	recorded := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
		return string(b)
	}

	t.Run("no aborts", func(t *testing.T) {
		out, errs, err := tenetRun(t, dir, "no\n", nil, "init", "-no-color")
		if err == nil || !strings.Contains(errs, "Migration aborted by user") {
			t.Fatalf("want the migration aborted; err=%v\n%s\n%s", err, out, errs)
		}
		if !strings.Contains(out, `Do you want to migrate all workspaces to "pg"?`) {
			t.Fatalf("the question was not asked:\n%s", out)
		}
		if strings.Contains(recorded(), `"pg"`) {
			t.Fatal("an aborted migration recorded the new backend")
		}
	})
	t.Run("input disabled fails", func(t *testing.T) {
		_, errs, err := tenetRun(t, dir, "yes\n", nil, "init", "-no-color", "-input=false")
		if err == nil || !strings.Contains(errs, "Error asking for state migration action") || !strings.Contains(errs, "-force-copy") {
			t.Fatalf("want input disabled refused; err=%v\n%s", err, errs)
		}
	})
	t.Run("yes copies every workspace to pg", func(t *testing.T) {
		out, errs, err := tenetRun(t, dir, "yes\n", nil, "init", "-no-color")
		if err != nil {
			t.Fatalf("init: %v\n%s\n%s", err, out, errs)
		}
		if !strings.Contains(out, `Copied the state of 2 workspace(s) (default, dev) from "local" to "pg"`) {
			t.Fatalf("stdout:\n%s", out)
		}
		for ws, want := range map[string]string{"default": wantDefault.Lineage, "dev": wantDev.Lineage} {
			got := readBackendState(t, "pg", pg, ws)
			if got == nil || got.Lineage != want || got.State.Empty() {
				t.Fatalf("workspace %s in pg: %+v, want lineage %s", ws, got, want)
			}
		}
		// The rows are where OpenTofu looks for them.
		rows, _ := backendtest.PGConn(t).Query(context.Background(), "SELECT name FROM "+pgx.Identifier{schema, "states"}.Sanitize()+" ORDER BY name")
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || !slices.Equal(names, []string{"default", "dev"}) {
			t.Fatalf("rows %v (%v), want default and dev", names, err)
		}
		// The local states are emptied, their content kept as backups.
		for _, p := range []string{"terraform.tfstate", "terraform.tfstate.d/dev/terraform.tfstate"} {
			if fi, err := os.Stat(filepath.Join(dir, p)); err != nil || fi.Size() != 0 {
				t.Fatalf("%s should be empty after the migration: %v", p, err)
			}
			if b := readStateFile(t, filepath.Join(dir, p+".backup")); b.State.Empty() {
				t.Fatalf("%s.backup lost the state", p)
			}
		}
		if out := mustTenet(t, dir, nil, "plan", "-no-color"); !strings.Contains(out, "No changes") {
			t.Fatalf("plan after the migration:\n%s", out)
		}
	})
	t.Run("pg to s3 needs -migrate-state and input or -force-copy", func(t *testing.T) {
		writeMain(t, dir, backendBlock("s3", s3)+migrateResources)
		_, errs, err := tenetRun(t, dir, "", nil, "init", "-no-color")
		if err == nil || !strings.Contains(errs, "Backend configuration changed") || !strings.Contains(errs, "-migrate-state") {
			t.Fatalf("want a changed backend refused: %v\n%s", err, errs)
		}
		_, errs, err = tenetRun(t, dir, "", nil, "init", "-no-color", "-migrate-state", "-input=false")
		if err == nil || !strings.Contains(errs, "Error asking for state migration action") {
			t.Fatalf("want input disabled refused: %v\n%s", err, errs)
		}
		out := mustTenet(t, dir, nil, "init", "-no-color", "-migrate-state", "-force-copy")
		if !strings.Contains(out, `backend type changed from "pg" to "s3"`) || strings.Contains(out, "Enter a value") {
			t.Fatalf("stdout:\n%s", out)
		}
		for ws, want := range map[string]string{"default": wantDefault.Lineage, "dev": wantDev.Lineage} {
			if got := readBackendState(t, "s3", s3, ws); got == nil || got.Lineage != want {
				t.Fatalf("workspace %s in s3: %+v, want lineage %s", ws, got, want)
			}
			// Nothing is removed from the old backend.
			if got := readBackendState(t, "pg", pg, ws); got == nil || got.Lineage != want {
				t.Fatalf("workspace %s gone from pg", ws)
			}
		}
		if out := mustTenet(t, dir, []string{"TF_WORKSPACE=dev"}, "plan", "-no-color"); !strings.Contains(out, "No changes") {
			t.Fatalf("plan of dev after the migration:\n%s", out)
		}
	})
}

// TestBackendMigrateOverNonEmptyState: a single state moving into a
// backend that already holds a different one is copied only when the
// answer says so, and the replaced state is kept in a local file.
func TestBackendMigrateOverNonEmptyState(t *testing.T) {
	pg := pgSettings(t, pgSchema(t))
	first := localWorkspacesApplied(t, false)
	writeMain(t, first, backendBlock("pg", pg)+migrateResources)
	mustTenet(t, first, nil, "init", "-force-copy")
	stored := readBackendState(t, "pg", pg, "default")

	t.Run("no keeps the destination", func(t *testing.T) {
		dir := localWorkspacesApplied(t, false)
		writeMain(t, dir, backendBlock("pg", pg)+migrateResources)
		out, errs, err := tenetRun(t, dir, "no\n", nil, "init", "-no-color")
		if err != nil {
			t.Fatalf("init: %v\n%s\n%s", err, out, errs)
		}
		if !strings.Contains(out, "Do you want to copy existing state to the new backend?") || !strings.Contains(out, "non-empty") {
			t.Fatalf("stdout:\n%s", out)
		}
		if got := readBackendState(t, "pg", pg, "default"); got.Lineage != stored.Lineage || got.Serial != stored.Serial {
			t.Fatalf("the destination changed after \"no\": %s/%d", got.Lineage, got.Serial)
		}
		if fi, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err != nil || fi.Size() == 0 {
			t.Fatal("\"no\" must leave the local state as it was")
		}
	})
	t.Run("force-copy replaces it and keeps a backup", func(t *testing.T) {
		dir := localWorkspacesApplied(t, false)
		want := readStateFile(t, filepath.Join(dir, "terraform.tfstate"))
		writeMain(t, dir, backendBlock("pg", pg)+migrateResources)
		out := mustTenet(t, dir, nil, "init", "-no-color", "-force-copy")
		if got := readBackendState(t, "pg", pg, "default"); got.Lineage != want.Lineage {
			t.Fatalf("destination lineage %s, want %s", got.Lineage, want.Lineage)
		}
		backups, _ := filepath.Glob(filepath.Join(dir, "pg-default.*.tfstate.backup"))
		if len(backups) != 1 || !strings.Contains(out, filepath.Base(backups[0])) {
			t.Fatalf("backups %v; stdout:\n%s", backups, out)
		}
		if kept := readStateFile(t, backups[0]); kept.Lineage != stored.Lineage || kept.Serial != stored.Serial {
			t.Fatalf("the backup holds %s/%d, want the replaced %s/%d", kept.Lineage, kept.Serial, stored.Lineage, stored.Serial)
		}
	})
}

// TestBackendMigrateWaitsForLocks: the migration takes the destination's
// lock; while someone else holds it, init fails after -lock-timeout with
// the holder's info and records nothing.
func TestBackendMigrateWaitsForLocks(t *testing.T) {
	pg := pgSettings(t, pgSchema(t))
	dir := localWorkspacesApplied(t, false)
	writeMain(t, dir, backendBlock("pg", pg)+migrateResources)
	m := openManager(t, "pg", pg, "default")
	id, d := m.Lock(context.Background(), backend.NewLockInfo("OperationTypeApply"))
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	_, errs, err := tenetRun(t, dir, "", nil, "init", "-no-color", "-force-copy", "-lock-timeout=1s")
	if err == nil || !strings.Contains(errs, "Error acquiring the state lock") || !strings.Contains(errs, id) {
		t.Fatalf("want a lock error naming %s: %v\n%s", id, err, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate")); err == nil {
		b, _ := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
		if strings.Contains(string(b), `"pg"`) {
			t.Fatal("a failed migration recorded the new backend")
		}
	}
	if f := readBackendState(t, "pg", pg, "default"); f != nil && !f.State.Empty() {
		t.Fatal("a failed migration wrote the destination")
	}
	m.Unlock(context.Background(), id)
	mustTenet(t, dir, nil, "init", "-no-color", "-force-copy", "-lock-timeout=1s")
	if f := readBackendState(t, "pg", pg, "default"); f == nil || f.State.Empty() {
		t.Fatal("the migration after unlocking copied nothing")
	}
}
