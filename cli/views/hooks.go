package views

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

func idSuffix(idKey, idValue string) string {
	if idKey == "" || idValue == "" {
		return ""
	}
	return " [" + idKey + "=" + idValue + "]"
}

// formatElapsed shows whole seconds, e.g. "1s", "1m2s".
func formatElapsed(d time.Duration) string {
	return d.Truncate(time.Second).String()
}

func applyStartText(action, idKey, idValue string) string {
	switch action {
	case HookCreate:
		return "Creating..."
	case HookUpdate:
		return "Modifying..." + idSuffix(idKey, idValue)
	case HookDelete:
		return "Destroying..." + idSuffix(idKey, idValue)
	case HookRead:
		return "Reading..." // as OpenTofu: no id for a data source read
	case HookForget:
		return "Removing..." + idSuffix(idKey, idValue)
	}
	return "Applying..." + idSuffix(idKey, idValue)
}

func progressVerb(action string) string {
	switch action {
	case HookCreate:
		return "creating"
	case HookUpdate:
		return "modifying"
	case HookDelete:
		return "destroying"
	case HookRead:
		return "reading"
	case HookForget:
		return "removing"
	}
	return "applying"
}

func applyProgressText(action string, elapsed time.Duration) string {
	return fmt.Sprintf("Still %s... [%s elapsed]", progressVerb(action), formatElapsed(elapsed))
}

func completionNoun(action string) string {
	switch action {
	case HookCreate:
		return "Creation"
	case HookUpdate:
		return "Modifications"
	case HookDelete:
		return "Destruction"
	case HookRead:
		return "Read"
	case HookForget:
		return "Removal"
	}
	return "Apply"
}

func applyCompleteText(action, idKey, idValue string, elapsed time.Duration) string {
	s := fmt.Sprintf("%s complete after %s", completionNoun(action), formatElapsed(elapsed))
	if action != HookDelete && action != HookForget {
		s += idSuffix(idKey, idValue)
	}
	return s
}

func applyErroredText(action string, elapsed time.Duration) string {
	return fmt.Sprintf("%s errored after %s", completionNoun(action), formatElapsed(elapsed))
}

func refreshStartText(idKey, idValue string) string {
	return "Refreshing state..." + idSuffix(idKey, idValue)
}

func refreshCompleteText(idKey, idValue string) string {
	return "Refresh complete" + idSuffix(idKey, idValue)
}

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

// NewHumanHooks writes to w; color adds bold to the address prefix.
func NewHumanHooks(w io.Writer, color bool) *HumanHooks {
	return &HumanHooks{w: w, color: color}
}

func (h *HumanHooks) line(addr, text string) {
	var b strings.Builder
	if h.color {
		b.WriteString(ansiBold + addr + ":" + ansiReset + " ")
	} else {
		b.WriteString(addr + ": ")
	}
	b.WriteString(text)
	b.WriteString("\n")
	h.mu.Lock()
	defer h.mu.Unlock()
	io.WriteString(h.w, b.String())
}

// ApplyStart writes `addr: Creating...` (or Modifying/Destroying... with the id).
func (h *HumanHooks) ApplyStart(addr, action, idKey, idValue string) {
	h.line(addr, applyStartText(action, idKey, idValue))
}

// ApplyProgress writes `addr: Still creating... [10s elapsed]`.
func (h *HumanHooks) ApplyProgress(addr, action string, elapsed time.Duration) {
	h.line(addr, applyProgressText(action, elapsed))
}

// ApplyComplete writes `addr: Creation complete after 1s [id=…]` and counts
// the operation.
func (h *HumanHooks) ApplyComplete(addr, action, idKey, idValue string, elapsed time.Duration) {
	h.mu.Lock()
	switch action {
	case HookCreate:
		h.added++
	case HookUpdate:
		h.changed++
	case HookDelete:
		h.destroyed++
	case HookForget:
		h.forgotten++
	}
	h.mu.Unlock()
	h.line(addr, applyCompleteText(action, idKey, idValue, elapsed))
}

// ApplyErrored writes `addr: Creation errored after 1s`; the diagnostics
// are rendered separately.
func (h *HumanHooks) ApplyErrored(addr, action string, elapsed time.Duration) {
	h.line(addr, applyErroredText(action, elapsed))
}

// RefreshStart writes `addr: Refreshing state... [id=…]`.
func (h *HumanHooks) RefreshStart(addr, idKey, idValue string) {
	h.line(addr, refreshStartText(idKey, idValue))
}

// RefreshComplete writes nothing for people (as OpenTofu); present so
// HumanHooks and JSONView offer the same methods.
func (h *HumanHooks) RefreshComplete(addr, idKey, idValue string) {}

// PrepareImport writes `addr: Preparing import... [id=…]` (planning).
func (h *HumanHooks) PrepareImport(addr, id string) {
	h.line(addr, "Preparing import..."+idSuffix("id", id))
}

// ImportStart writes `addr: Importing... [id=…]`.
func (h *HumanHooks) ImportStart(addr, id string) {
	h.line(addr, "Importing..."+idSuffix("id", id))
}

// ImportComplete writes `addr: Import complete [id=…]` and counts it.
func (h *HumanHooks) ImportComplete(addr, id string) {
	h.Imported()
	h.line(addr, "Import complete"+idSuffix("id", id))
}

// Imported counts an object imported by the apply.
func (h *HumanHooks) Imported() {
	h.mu.Lock()
	h.imported++
	h.mu.Unlock()
}

// Summary returns the counts of successful operations so far.
func (h *HumanHooks) Summary(operation string) ChangeSummary {
	h.mu.Lock()
	defer h.mu.Unlock()
	return ChangeSummary{Add: h.added, Change: h.changed, Remove: h.destroyed,
		Import: h.imported, Forget: h.forgotten, Operation: operation}
}

// WriteApplySummary writes the closing line of an apply, e.g.
// "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." in bold
// green when color is on.
func WriteApplySummary(w io.Writer, s ChangeSummary, color bool) error {
	text := s.String()
	if color {
		text = ansiBold + ansiGreen + text + ansiReset
	}
	_, err := io.WriteString(w, "\n"+text+"\n")
	return err
}
