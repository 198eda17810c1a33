package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/state"
)

// statusRecorder keeps each object's statuses as the state journal is
// told them, in order.
type statusRecorder struct {
	mu   sync.Mutex
	seen map[string][]string
}

func (r *statusRecorder) RecordObject(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, _ addrs.AbsProviderConfig) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string][]string{}
	}
	s := "gone"
	if obj != nil {
		s = map[state.ObjectStatus]string{state.ObjectReady: "ready", state.ObjectTainted: "tainted"}[obj.Status]
	}
	k := addr.String()
	if deposed != state.NotDeposed {
		k += " deposed"
	}
	r.seen[k] = append(r.seen[k], s)
	return nil
}

// A creation-time provisioner that fails leaves the new object tainted,
// in the returned state and in what the recorder (the crash journal) was
// told, and stops the resource's dependents; one that fails with
// on_failure = continue does not.
func TestFailingProvisionerTaints(t *testing.T) {
	dir := t.TempDir()
	cfg := strings.NewReplacer("DIR", dir).Replace(`
resource "test_thing" "a" {
  name = "alpha"
  provisioner "local-exec" {
    command    = "exit 1"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo ${self.name} > DIR/ran; exit 3"
  }
  provisioner "local-exec" {
    command = "touch DIR/never"
  }
}
resource "test_thing" "b" {
  name = test_thing.a.id
}
`)
	h := newHarness(t, newFake(), cfg)
	rec := &statusRecorder{}
	diags := h.apply(h.mustPlan(engine.PlanOpts{}), rec)
	wantDiag(t, diags, "local-exec provisioner error", "Error running command 'echo alpha > "+dir+"/ran; exit 3': exit status 3. Output: ")
	if got, _ := os.ReadFile(filepath.Join(dir, "ran")); string(got) != "alpha\n" {
		t.Errorf("the second provisioner saw self.name %q, want alpha", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "never")); err == nil {
		t.Error("a provisioner after the failing one ran")
	}
	if _, obj := h.current("test_thing.a"); obj == nil || obj.Status != state.ObjectTainted {
		t.Errorf("test_thing.a = %+v, want a tainted object", obj)
	}
	if v, _ := h.current("test_thing.b"); v != cty.NilVal {
		t.Error("test_thing.b was created after its dependency failed")
	}
	if diff := cmp.Diff(map[string][]string{"test_thing.a": {"ready", "tainted"}}, rec.seen); diff != "" {
		t.Errorf("recorded statuses (-want +got):\n%s", diff)
	}
}

// A destroy-time provisioner runs before the object is destroyed; when it
// fails, the object stays, not tainted.
func TestFailingDestroyProvisionerKeepsObject(t *testing.T) {
	cfg := `
resource "test_thing" "a" {
  name = "alpha"
  provisioner "local-exec" {
    when    = destroy
    command = "exit 1"
  }
}
`
	h := newHarness(t, newFake(), cfg)
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	diags := h.apply(h.mustPlan(engine.PlanOpts{Mode: plan.DestroyMode}), nil)
	wantDiag(t, diags, "local-exec provisioner error", "Error running command 'exit 1': exit status 1. Output: ")
	if _, obj := h.current("test_thing.a"); obj == nil || obj.Status != state.ObjectReady {
		t.Errorf("test_thing.a = %+v, want the object kept as it was", obj)
	}
}

// An interrupt (ApplyOpts.Stop) stops a running provisioner's command:
// the object is tainted and recorded, and the apply reports both the halt
// and the provisioner's error.
func TestInterruptStopsProvisioner(t *testing.T) {
	dir := t.TempDir()
	cfg := strings.NewReplacer("DIR", dir).Replace(`
resource "test_thing" "a" {
  name = "alpha"
  provisioner "local-exec" {
    command = "touch DIR/started; sleep 30; touch DIR/finished"
  }
}
`)
	h := newHarness(t, newFake(), cfg)
	p := h.mustPlan(engine.PlanOpts{})
	stop, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				interrupt()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	rec := &statusRecorder{}
	start := time.Now()
	st, diags := h.eng.Apply(context.Background(), h.cfg, p, engine.ApplyOpts{Stop: stop}, rec)
	if time.Since(start) > 20*time.Second {
		t.Fatal("the interrupt did not stop the command")
	}
	h.state = st
	wantDiag(t, diags, "local-exec provisioner error", "signal: killed")
	wantDiag(t, diags, "execution halted")
	if _, err := os.Stat(filepath.Join(dir, "finished")); err == nil {
		t.Error("the command ran to its end")
	}
	if _, obj := h.current("test_thing.a"); obj == nil || obj.Status != state.ObjectTainted {
		t.Errorf("test_thing.a = %+v, want a tainted object", obj)
	}
	if diff := cmp.Diff(map[string][]string{"test_thing.a": {"ready", "tainted"}}, rec.seen); diff != "" {
		t.Errorf("recorded statuses (-want +got):\n%s", diff)
	}
}

// A provisioner may refer to a repeated module call's outputs: before
// the plan checks its body, such a call is unknown, not an empty tuple.
func TestProvisionerReferencesRepeatedModule(t *testing.T) {
	h := newHarness(t, newFake(), "")
	h.setFiles(map[string]string{
		"main.tf": `
module "m" {
  source = "./mod"
  count  = 2
}
resource "test_thing" "a" {
  name = "alpha"
  provisioner "local-exec" {
    command = "echo ${module.m[0].o}"
  }
}
`,
		"mod/main.tf": `output "o" { value = "x" }`,
	})
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
}

// As OpenTofu, a creation-time provisioner of a resource without count or
// for_each may name the resource itself instead of using self.
func TestProvisionerNamesItsOwnResource(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, newFake(), strings.NewReplacer("DIR", dir).Replace(`
resource "test_thing" "a" {
  name = "alpha"
  provisioner "local-exec" {
    command = "echo ${test_thing.a.name} > DIR/name"
  }
}
`))
	h.mustApply(h.mustPlan(engine.PlanOpts{}))
	if got, _ := os.ReadFile(filepath.Join(dir, "name")); string(got) != "alpha\n" {
		t.Errorf("the provisioner saw %q, want alpha", got)
	}
}
