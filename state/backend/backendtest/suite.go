package backendtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/statefile"
	"github.com/tenetplan/tenet/state/statetest"
)

// Harness is what the suite needs from a backend's test.
type Harness struct {
	// New configures a backend on a storage area private to this test
	// run; each call is a separate, independent configuration (as
	// another process would have) on the same area.
	New func(t *testing.T) backend.Backend
	// RawGet reads a workspace's stored snapshot the way OpenTofu's
	// documented layout says it is stored, without the backend (nil when
	// there is none).
	RawGet func(t *testing.T, workspace string) []byte
	// RawPut stores data for a workspace behind the backend's back.
	RawPut func(t *testing.T, workspace string, data []byte)
	// NoWorkspaces is set for backends with only the default workspace.
	NoWorkspaces bool
}

// NoErrors fails the test when diags has errors.
func NoErrors(t testing.TB, what string, diags hcl.Diagnostics) {
	t.Helper()
	if diags.HasErrors() {
		t.Fatalf("%s: %s", what, diags.Error())
	}
}

// WantError fails the test unless diags has an error whose summary or
// detail contains want.
func WantError(t testing.TB, what string, diags hcl.Diagnostics, want string) {
	t.Helper()
	if !diags.HasErrors() {
		t.Fatalf("%s: no error, want one mentioning %q", what, want)
	}
	for _, d := range diags {
		if strings.Contains(d.Summary, want) || strings.Contains(d.Detail, want) {
			return
		}
	}
	t.Fatalf("%s: error %q does not mention %q", what, diags.Error(), want)
}

// Configure configures a backend with new, its package's New, wanting no
// errors, and closes it when the test ends.
func Configure[C any, B interface{ Close() error }](t testing.TB, new func(context.Context, C) (B, hcl.Diagnostics), cfg C) B {
	t.Helper()
	b, diags := new(context.Background(), cfg)
	NoErrors(t, "configure", diags)
	t.Cleanup(func() { b.Close() })
	return b
}

// SettingsCase is one reading of a backend's configuration: its
// arguments and, as the whole environment, Env. It wants the
// configuration Want (and, with Warning set, a warning whose detail
// mentions it), or with Err set an error mentioning that.
type SettingsCase[C any] struct {
	Name    string
	Vals    map[string]cty.Value
	Env     map[string]string
	Want    C
	Err     string
	Warning string
}

// CheckSettings runs each case, as a subtest, through the backend's
// configuration reader from.
func CheckSettings[C any](t *testing.T, from func(*backend.Settings) (C, hcl.Diagnostics), cases []SettingsCase[C]) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			s := backend.NewSettings(tc.Vals)
			s.Getenv = func(k string) string { return tc.Env[k] }
			got, diags := from(s)
			if tc.Err != "" {
				WantError(t, "config", diags, tc.Err)
				return
			}
			NoErrors(t, "config", diags)
			if tc.Warning != "" && (len(diags) == 0 || !strings.Contains(diags[0].Detail, tc.Warning)) {
				t.Errorf("want a warning mentioning %q, got %v", tc.Warning, diags)
			}
			if diff := cmp.Diff(tc.Want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	t.Run("RoundTrip", func(t *testing.T) { roundTrip(t, h) })
	t.Run("Workspaces", func(t *testing.T) { workspaces(t, h) })
	t.Run("LockExclusion", func(t *testing.T) { lockExclusion(t, h) })
	t.Run("CorruptState", func(t *testing.T) { corruptState(t, h) })
}

func roundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	b := h.New(t)
	m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{TerraformVersion: "1.10.6"})
	NoErrors(t, "open", diags)
	f, diags := m.Read(ctx)
	NoErrors(t, "first read", diags)
	if f != nil {
		t.Fatalf("first read found a state (serial %d), want none", f.Serial)
	}
	steps := []struct {
		name       string
		ids        []string
		wantSerial uint64
	}{
		{"first write gets serial 1", []string{"a"}, 1},
		{"unchanged write keeps the serial", []string{"a"}, 1},
		{"changed write bumps the serial", []string{"a", "b"}, 2},
		{"emptied state bumps again", nil, 3},
	}
	var lineage string
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			want := statetest.With(t, step.ids...)
			NoErrors(t, "write", m.Write(ctx, want))
			// Read through a second, independent configuration.
			m2, diags := backend.Open(ctx, h.New(t), backend.DefaultWorkspace, backend.Options{})
			NoErrors(t, "open 2", diags)
			got, diags := m2.Read(ctx)
			NoErrors(t, "read", diags)
			if got == nil {
				t.Fatal("read found no state after a write")
			}
			if !got.State.Equal(want) {
				t.Errorf("state read back differs:\n%s", cmp.Diff(want, got.State))
			}
			if got.Serial != step.wantSerial {
				t.Errorf("serial = %d, want %d", got.Serial, step.wantSerial)
			}
			if lineage == "" {
				lineage = got.Lineage
			}
			if got.Lineage != lineage || lineage == "" {
				t.Errorf("lineage = %q, want %q", got.Lineage, lineage)
			}
			// What OpenTofu reads: the raw stored bytes are a v4 state
			// file with the same content.
			raw := h.RawGet(t, backend.DefaultWorkspace)
			rf, err := statefile.Parse(raw)
			if err != nil {
				t.Fatalf("stored bytes are not a state file: %v\n%s", err, raw)
			}
			if diff := cmp.Diff([]any{got.Serial, got.Lineage, "1.10.6"}, []any{rf.Serial, rf.Lineage, rf.TerraformVersion}); diff != "" {
				t.Errorf("stored metadata differs (-read +raw):\n%s", diff)
			}
			if !rf.State.Equal(want) {
				t.Errorf("stored state differs from the one written")
			}
		})
	}
}

func workspaces(t *testing.T, h Harness) {
	ctx := context.Background()
	b := h.New(t)
	if h.NoWorkspaces {
		_, diags := b.Workspaces(ctx)
		WantError(t, "list", diags, "workspaces")
		WantError(t, "create", b.CreateWorkspace(ctx, "dev"), "workspaces")
		WantError(t, "delete", b.DeleteWorkspace(ctx, "dev", true), "workspaces")
		_, diags = b.Client(ctx, "dev")
		WantError(t, "client of dev", diags, "workspaces")
		_, diags = b.Client(ctx, backend.DefaultWorkspace)
		NoErrors(t, "client of default", diags)
		return
	}
	NoErrors(t, "create dev", b.CreateWorkspace(ctx, "dev"))
	NoErrors(t, "create prod", b.CreateWorkspace(ctx, "prod"))
	NoErrors(t, "create dev again", b.CreateWorkspace(ctx, "dev"))
	m, diags := backend.Open(ctx, b, "prod", backend.Options{})
	NoErrors(t, "open prod", diags)
	NoErrors(t, "write prod", m.Write(ctx, statetest.With(t, "p")))
	if raw := h.RawGet(t, "prod"); !strings.Contains(string(raw), `"terraform_data"`) {
		t.Fatalf("prod's state is not stored where OpenTofu keeps it: %q", raw)
	}
	if raw := h.RawGet(t, "dev"); raw == nil {
		t.Fatal("dev's empty state is not stored where OpenTofu keeps it")
	}

	names, diags := b.Workspaces(ctx)
	NoErrors(t, "list", diags)
	// The default workspace is listed even before it has a state.
	if diff := cmp.Diff([]string{"default", "dev", "prod"}, names); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}

	tests := []struct {
		name, workspace string
		force           bool
		wantErr         string
	}{
		{"default cannot be deleted", "default", true, "default workspace"},
		{"missing workspace", "nope", false, "does not exist"},
		{"non-empty needs force", "prod", false, "-force"},
		{"invalid name", "a/b", false, "does not exist"},
		{"empty workspace", "dev", false, ""},
		{"non-empty with force", "prod", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := b.DeleteWorkspace(ctx, tt.workspace, tt.force)
			if tt.wantErr != "" {
				WantError(t, "delete", diags, tt.wantErr)
				return
			}
			NoErrors(t, "delete", diags)
			if raw := h.RawGet(t, tt.workspace); raw != nil {
				t.Errorf("workspace %s still stored after delete", tt.workspace)
			}
		})
	}
	names, diags = b.Workspaces(ctx)
	NoErrors(t, "list", diags)
	if diff := cmp.Diff([]string{"default"}, names); diff != "" {
		t.Errorf("workspaces after deletes (-want +got):\n%s", diff)
	}
}

func lockExclusion(t *testing.T, h Harness) {
	ctx := context.Background()
	workspaces := []string{backend.DefaultWorkspace}
	if !h.NoWorkspaces {
		// "fresh" has no stored state while it is locked.
		workspaces = append(workspaces, "fresh")
	}
	for _, ws := range workspaces {
		t.Run(ws, func(t *testing.T) {
			m1, diags := backend.Open(ctx, h.New(t), ws, backend.Options{})
			NoErrors(t, "open 1", diags)
			m2, diags := backend.Open(ctx, h.New(t), ws, backend.Options{})
			NoErrors(t, "open 2", diags)
			info := backend.NewLockInfo("OperationTypeApply")
			id, diags := m1.Lock(ctx, info)
			NoErrors(t, "lock 1", diags)
			if id != info.ID {
				t.Errorf("lock ID = %q, want %q", id, info.ID)
			}
			_, diags = m2.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			WantError(t, "lock 2 while 1 holds it", diags, "locked")
			holder, ok := backend.Holder(diags)
			if !ok || holder == nil {
				t.Fatalf("conflict carries no holder: %s", diags.Error())
			}
			if diff := cmp.Diff([]string{info.ID, "OperationTypeApply"}, []string{holder.ID, holder.Operation}); diff != "" {
				t.Errorf("holder (-want +got):\n%s", diff)
			}
			if holder.Who == "" || holder.Created.IsZero() {
				t.Errorf("holder lacks who or created: %+v", holder)
			}
			if !strings.Contains(diags.Error(), info.ID) {
				t.Errorf("conflict message does not show the holder's ID: %s", diags.Error())
			}
			// The holder can still write while locked.
			NoErrors(t, "write under lock", m1.Write(ctx, statetest.With(t, "locked")))
			NoErrors(t, "unlock 1", m1.Unlock(ctx, id))
			id2, diags := m2.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			NoErrors(t, "lock 2 after 1 let go", diags)
			_, diags = m1.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
			WantError(t, "lock 1 while 2 holds it", diags, "locked")
			NoErrors(t, "unlock 2", m2.Unlock(ctx, id2))
		})
	}
}

func corruptState(t *testing.T, h Harness) {
	ctx := context.Background()
	tests := []struct {
		name string
		data string
	}{
		{"not JSON", "{not json"},
		{"future version", `{"version":5,"serial":1,"lineage":"x"}`},
		{"truncated", `{"version":4,"serial":3,"lineage":"3f1c2a9e-5b7d-4e21-9a0c-1d2e3f405162","resources":[{"mode":"managed",`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := backend.DefaultWorkspace
			if !h.NoWorkspaces {
				ws = fmt.Sprintf("corrupt%d", i)
			}
			h.RawPut(t, ws, []byte(tt.data))
			m, diags := backend.Open(ctx, h.New(t), ws, backend.Options{})
			NoErrors(t, "open", diags)
			_, diags = m.Read(ctx)
			WantError(t, "read", diags, "corrupt")
			WantError(t, "write after failed read", m.Write(ctx, statetest.With(t, "x")), "will not overwrite")
			// A manager that never read refuses too.
			m2, diags := backend.Open(ctx, h.New(t), ws, backend.Options{})
			NoErrors(t, "open 2", diags)
			WantError(t, "write without read", m2.Write(ctx, statetest.With(t, "x")), "will not overwrite")
			if got := string(h.RawGet(t, ws)); got != tt.data {
				t.Errorf("stored data changed to %q", got)
			}
		})
	}
}
