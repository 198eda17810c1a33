package human

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// HumanHooks writes apply progress for people: `addr: Creating...`,
// `addr: Creation complete after 1s [id=…]`, and so on. It is safe for use
// from many goroutines, and counts completed operations for the summary.
type HumanHooks struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	// counts of successful operations, for Summary.
	added, changed, destroyed, imported, forgotten int
}

// NewHumanHooks writes to w; color makes the lines bold.
func NewHumanHooks(w io.Writer, color bool) *HumanHooks {
	return &HumanHooks{w: w, color: color}
}

// line writes `addr: text`. With colour the line is bold, between resets,
// as OpenTofu writes it; the lines that start an operation end with a
// second reset (started), as OpenTofu's do.
func (h *HumanHooks) line(addr, text string) { h.write(addr, text, false) }

func (h *HumanHooks) write(addr, text string, started bool) {
	var b strings.Builder
	if h.color {
		b.WriteString(views.ANSIReset + views.ANSIBold)
	}
	b.WriteString(addr)
	b.WriteString(": ")
	b.WriteString(text)
	if h.color {
		b.WriteString(views.ANSIReset)
		if started {
			b.WriteString(views.ANSIReset)
		}
	}
	b.WriteString("\n")
	h.mu.Lock()
	defer h.mu.Unlock()
	io.WriteString(h.w, b.String())
}

// ApplyStart writes `addr: Creating...` (or Modifying/Destroying... with the id).
func (h *HumanHooks) ApplyStart(addr string, act action.Action, idKey, idValue string) {
	h.write(addr, views.HumanVoice.ApplyStartText(act, idKey, idValue), true)
}

// ApplyProgress writes `addr: Still creating... [10s elapsed]`, or
// `addr: Still destroying... [id=abc, 10s elapsed]` for an existing object.
func (h *HumanHooks) ApplyProgress(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	h.write(addr, views.HumanVoice.ApplyProgressText(act, idKey, idValue, elapsed), true)
}

// ApplyComplete writes `addr: Creation complete after 1s [id=…]` and counts
// the operation.
func (h *HumanHooks) ApplyComplete(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	h.mu.Lock()
	switch act {
	case action.Create:
		h.added++
	case action.Update:
		h.changed++
	case action.Delete:
		h.destroyed++
	case action.Forget:
		h.forgotten++
	}
	h.mu.Unlock()
	h.line(addr, views.HumanVoice.ApplyCompleteText(act, idKey, idValue, elapsed))
}

// ApplyErrored writes nothing: as in OpenTofu, the human view leaves a
// failed operation to the diagnostics that follow.
func (h *HumanHooks) ApplyErrored(addr string, act action.Action, elapsed time.Duration) {}

// ProvisionStart writes `addr: Provisioning with 'local-exec'...`.
func (h *HumanHooks) ProvisionStart(addr, typ string) {
	h.write(addr, views.ProvisionStartText(typ), true)
}

// ProvisionOutput writes what a provisioner reported, each line after
// `addr (local-exec): `. A report with nothing but blanks still writes
// one empty line, as OpenTofu's does.
func (h *HumanHooks) ProvisionOutput(addr, typ, msg string) {
	prefix := addr + " (" + typ + "): "
	if h.color {
		prefix = views.ANSIReset + views.ANSIBold + addr + " (" + typ + "):" + views.ANSIReset + " " + views.ANSIReset
	}
	var b strings.Builder
	for i, line := range views.ProvisionLines(msg) {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(prefix)
		b.WriteString(line)
	}
	b.WriteString("\n")
	h.mu.Lock()
	defer h.mu.Unlock()
	io.WriteString(h.w, b.String())
}

// ProvisionEnd writes nothing for people: a failure is reported by its
// diagnostics.
func (h *HumanHooks) ProvisionEnd(addr, typ string, failed bool) {}

// RefreshStart writes `addr: Refreshing state... [id=…]`.
func (h *HumanHooks) RefreshStart(addr, idKey, idValue string) {
	h.line(addr, views.RefreshStartText(idKey, idValue))
}

// RefreshComplete writes nothing for people (as OpenTofu); present so
// HumanHooks and JSONView offer the same methods.
func (h *HumanHooks) RefreshComplete(addr, idKey, idValue string) {}

// PrepareImport writes `addr: Preparing import... [id=…]` (planning).
func (h *HumanHooks) PrepareImport(addr, id string) {
	h.line(addr, "Preparing import..."+views.IDSuffix("id", id))
}

// ImportStart writes `addr: Importing... [id=…]`.
func (h *HumanHooks) ImportStart(addr, id string) {
	h.line(addr, "Importing..."+views.IDSuffix("id", id))
}

// ImportComplete writes `addr: Import complete [id=…]` and counts it.
func (h *HumanHooks) ImportComplete(addr, id string) {
	h.Imported()
	h.line(addr, "Import complete"+views.IDSuffix("id", id))
}

// Imported counts an object imported by the apply.
func (h *HumanHooks) Imported() {
	h.mu.Lock()
	h.imported++
	h.mu.Unlock()
}

// Summary returns the counts of successful operations so far.
func (h *HumanHooks) Summary(operation string) views.ChangeSummary {
	h.mu.Lock()
	defer h.mu.Unlock()
	return views.ChangeSummary{Add: h.added, Change: h.changed, Remove: h.destroyed,
		Import: h.imported, Forget: h.forgotten, Operation: operation}
}

// WriteApplySummary writes the closing line of an apply, e.g.
// "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." in bold
// green when color is on (with OpenTofu's resets: the colour starts before
// the blank line and is reset after the line break).
func WriteApplySummary(w io.Writer, s views.ChangeSummary, color bool) error {
	text := "\n" + s.String() + "\n"
	if color {
		text = views.ANSIReset + views.ANSIBold + views.ANSIGreen + text + views.ANSIReset
	}
	_, err := io.WriteString(w, text)
	return err
}
