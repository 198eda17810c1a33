package jsonui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// UIVersion is the version of the machine-readable UI message schema.
const UIVersion = "1.2"

// timestampLayout is RFC 3339 with microseconds and the zone offset.
const timestampLayout = "2006-01-02T15:04:05.000000Z07:00"

// JSONView writes the machine-readable UI stream (§15): one JSON object per
// line. It is safe for use from many goroutines; each message is written
// with a single Write.
type JSONView struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
	err error
}

// NewJSONView writes messages to w.
func NewJSONView(w io.Writer) *JSONView {
	return &JSONView{w: w, now: time.Now}
}

// SetClock replaces the clock used for @timestamp (tests).
func (v *JSONView) SetClock(now func() time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.now = now
}

// Err reports the first write error, if any.
func (v *JSONView) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// emit writes one message. payloadKey may be "" for messages without one.
func (v *JSONView) emit(level, message, typ string, payloadKey string, payload any, extra map[string]any) {
	msg := make(map[string]any, 6+len(extra))
	msg["@level"] = level
	msg["@message"] = message
	msg["@module"] = "tofu.ui"
	if typ != "" {
		msg["type"] = typ
	}
	if payloadKey != "" {
		msg[payloadKey] = payload
	}
	for k, x := range extra {
		msg[k] = x
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	msg["@timestamp"] = v.now().Format(timestampLayout)
	// As OpenTofu's stream: <, > and & stay as they are in messages and
	// source snippets. Encode ends the line.
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(msg); err != nil {
		if v.err == nil {
			v.err = err
		}
		return
	}
	if _, err := v.w.Write(line.Bytes()); err != nil && v.err == nil {
		v.err = err
	}
}

// Version is the first message of a stream.
func (v *JSONView) Version(toolVersion string) {
	v.emit("info", "tenet "+toolVersion, "version", "", nil, map[string]any{
		"tofu": toolVersion,
		"ui":   UIVersion,
	})
}

// Output, Info and Error carry the lines of the commands OpenTofu prints
// through its older message interface (init, get) with -json: Output's
// have the type "output", Info's and Error's none.
func (v *JSONView) Output(message string) { v.emit("info", message, "output", "", nil, nil) }

// Info writes an informational line without a type.
func (v *JSONView) Info(message string) { v.emit("info", message, "", "", nil, nil) }

// Error writes an error line that is not a diagnostic.
func (v *JSONView) Error(message string) { v.emit("error", message, "", "", nil, nil) }

// Log writes a free-form message.
func (v *JSONView) Log(message string) {
	v.emit("info", message, "log", "", nil, nil)
}

// Diagnostic writes one diagnostic; files supplies source for snippets.
func (v *JSONView) Diagnostic(d *hcl.Diagnostic, files map[string]*hcl.File) {
	jd := views.DiagnosticJSON(d, files)
	level, prefix := "error", "Error: "
	if jd.Severity == "warning" {
		level, prefix = "warn", "Warning: "
	}
	v.emit(level, prefix+jd.Summary, "diagnostic", "diagnostic", jd, nil)
}

// Diagnostics writes each diagnostic in order.
func (v *JSONView) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	for _, d := range diags {
		v.Diagnostic(d, files)
	}
}

// ChangeMessage is the payload of planned_change and resource_drift.
type ChangeMessage struct {
	Resource         ResourceAddr    `json:"resource"`
	PreviousResource *ResourceAddr   `json:"previous_resource,omitempty"`
	Action           string          `json:"action"`
	Reason           string          `json:"reason,omitempty"`
	Importing        *ImportingField `json:"importing,omitempty"`
	GeneratedConfig  string          `json:"generated_config,omitempty"`
}

// ImportingField says which object a change imports.
type ImportingField struct {
	ID string `json:"id"`
}

// PlannedChange reports one planned resource change.
func (v *JSONView) PlannedChange(c ChangeMessage) {
	v.emit("info", fmt.Sprintf("%s: Plan to %s", c.Resource.Addr, c.Action), "planned_change", "change", c, nil)
}

// ResourceDrift reports one change made outside of tenet.
func (v *JSONView) ResourceDrift(c ChangeMessage) {
	v.emit("info", fmt.Sprintf("%s: Drift detected (%s)", c.Resource.Addr, c.Action), "resource_drift", "change", c, nil)
}

// ChangeSummary reports the totals of a plan or an apply.
func (v *JSONView) ChangeSummary(s views.ChangeSummary) {
	v.emit("info", s.String(), "change_summary", "changes", s, nil)
}

// OutputMessage describes one root output: Action in plans; Type and
// Value after apply (Value omitted when sensitive).
type OutputMessage struct {
	Sensitive  bool            `json:"sensitive"`
	Deprecated string          `json:"deprecated,omitempty"`
	Type       json.RawMessage `json:"type,omitempty"`
	Value      json.RawMessage `json:"value,omitempty"`
	Action     string          `json:"action,omitempty"`
}

// Outputs reports the root outputs of a plan or an apply.
func (v *JSONView) Outputs(outputs map[string]OutputMessage) {
	v.emit("info", fmt.Sprintf("Outputs: %d", len(outputs)), "outputs", "outputs", outputs, nil)
}

type hookMessage struct {
	Resource       ResourceAddr `json:"resource"`
	Action         string       `json:"action,omitempty"`
	IDKey          string       `json:"id_key,omitempty"`
	IDValue        string       `json:"id_value,omitempty"`
	ElapsedSeconds *int64       `json:"elapsed_seconds,omitempty"`
}

func seconds(d time.Duration) *int64 {
	s := int64(d / time.Second)
	return &s
}

// ApplyStart reports that an operation on addr started; idKey/idValue name
// the object's identifying attribute when it has a prior object.
func (v *JSONView) ApplyStart(addr string, act action.Action, idKey, idValue string) {
	if act == action.Forget {
		return // forgetting touches no remote object; OpenTofu's stream has no hooks for it
	}
	h := hookMessage{Resource: NewResourceAddr(addr), Action: act.UIName(), IDKey: idKey, IDValue: idValue}
	v.emit("info", addr+": "+views.JSONVoice.ApplyStartText(act, idKey, idValue), "apply_start", "hook", h, nil)
}

// ApplyProgress reports an operation still running. As in OpenTofu's
// stream, neither the message nor the hook names the object's id.
func (v *JSONView) ApplyProgress(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	h := hookMessage{Resource: NewResourceAddr(addr), Action: act.UIName(), ElapsedSeconds: seconds(elapsed)}
	v.emit("info", addr+": "+views.JSONVoice.ApplyProgressText(act, "", "", elapsed), "apply_progress", "hook", h, nil)
}

// ApplyComplete reports a finished operation.
func (v *JSONView) ApplyComplete(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	if act == action.Forget {
		return
	}
	h := hookMessage{Resource: NewResourceAddr(addr), Action: act.UIName(), IDKey: idKey, IDValue: idValue, ElapsedSeconds: seconds(elapsed)}
	v.emit("info", addr+": "+views.JSONVoice.ApplyCompleteText(act, idKey, idValue, elapsed), "apply_complete", "hook", h, nil)
}

// ApplyErrored reports a failed operation; the diagnostics follow
// separately. A failed data source read has no such message in OpenTofu's
// stream, only its diagnostics.
func (v *JSONView) ApplyErrored(addr string, act action.Action, elapsed time.Duration) {
	if act == action.Read {
		return
	}
	h := hookMessage{Resource: NewResourceAddr(addr), Action: act.UIName(), ElapsedSeconds: seconds(elapsed)}
	// At level info, as OpenTofu: the error is the diagnostic that follows.
	v.emit("info", addr+": "+views.JSONVoice.ApplyErroredText(act, elapsed), "apply_errored", "hook", h, nil)
}

// provisionHook is the hook of a provisioner's messages.
type provisionHook struct {
	Resource    ResourceAddr `json:"resource"`
	Provisioner string       `json:"provisioner"`
	Output      string       `json:"output,omitempty"`
}

// ProvisionStart reports that a provisioner of typ started for addr.
func (v *JSONView) ProvisionStart(addr, typ string) {
	h := provisionHook{Resource: NewResourceAddr(addr), Provisioner: typ}
	v.emit("info", addr+": "+views.ProvisionStartText(typ), "provision_start", "hook", h, nil)
}

// ProvisionOutput reports each non-blank line of what a provisioner
// reported as a message of its own.
func (v *JSONView) ProvisionOutput(addr, typ, msg string) {
	for _, line := range views.ProvisionLines(msg) {
		h := provisionHook{Resource: NewResourceAddr(addr), Provisioner: typ, Output: line}
		v.emit("info", addr+": ("+typ+"): "+line, "provision_progress", "hook", h, nil)
	}
}

// ProvisionEnd reports that a provisioner finished or failed; a failure's
// diagnostics follow separately.
func (v *JSONView) ProvisionEnd(addr, typ string, failed bool) {
	h := provisionHook{Resource: NewResourceAddr(addr), Provisioner: typ}
	if failed {
		v.emit("info", addr+": ("+typ+") Provisioning errored", "provision_errored", "hook", h, nil)
		return
	}
	v.emit("info", addr+": ("+typ+") Provisioning complete", "provision_complete", "hook", h, nil)
}

// RefreshStart reports that reading the object at addr started.
func (v *JSONView) RefreshStart(addr, idKey, idValue string) {
	h := hookMessage{Resource: NewResourceAddr(addr), IDKey: idKey, IDValue: idValue}
	v.emit("info", addr+": "+views.RefreshStartText(idKey, idValue), "refresh_start", "hook", h, nil)
}

// RefreshComplete reports that reading the object at addr finished.
func (v *JSONView) RefreshComplete(addr, idKey, idValue string) {
	h := hookMessage{Resource: NewResourceAddr(addr), IDKey: idKey, IDValue: idValue}
	v.emit("info", addr+": "+views.RefreshCompleteText(idKey, idValue), "refresh_complete", "hook", h, nil)
}

// TestAbstract announces the test files and their run blocks.
func (v *JSONView) TestAbstract(message string, runs map[string][]string) {
	v.emit("info", message, "test_abstract", "test_abstract", runs, nil)
}

// testStatus is a file's or run's status as the stream spells it.
type testStatus struct {
	Path   string `json:"path"`
	Run    string `json:"run,omitempty"`
	Status string `json:"status"`
}

// TestFile reports a test file's status.
func (v *JSONView) TestFile(message, path, status string) {
	v.emit("info", message, "test_file", "test_file", testStatus{Path: path, Status: status}, map[string]any{"@testfile": path})
}

// TestRun reports a run block's status.
func (v *JSONView) TestRun(message, path, run, status string) {
	v.emit("info", message, "test_run", "test_run", testStatus{Path: path, Run: run, Status: status}, map[string]any{"@testfile": path, "@testrun": run})
}

// TestDiagnostics writes diagnostics of a test file, or of one of its
// runs when run is not "".
func (v *JSONView) TestDiagnostics(diags hcl.Diagnostics, files map[string]*hcl.File, path, run string) {
	extra := map[string]any{"@testfile": path}
	if run != "" {
		extra["@testrun"] = run
	}
	for _, d := range diags {
		jd := views.DiagnosticJSON(d, files)
		level, prefix := "error", "Error: "
		if jd.Severity == "warning" {
			level, prefix = "warn", "Warning: "
		}
		v.emit(level, prefix+jd.Summary, "diagnostic", "diagnostic", jd, extra)
	}
}

// TestSummary is the last message of tenet test.
func (v *JSONView) TestSummary(message, status string, passed, failed, errored, skipped int) {
	v.emit("info", message, "test_summary", "test_summary", struct {
		Status  string `json:"status"`
		Passed  int    `json:"passed"`
		Failed  int    `json:"failed"`
		Errored int    `json:"errored"`
		Skipped int    `json:"skipped"`
	}{status, passed, failed, errored, skipped}, nil)
}

// TestVerbose writes a run's plan (kind test_plan) or state (test_state)
// document for -verbose.
func (v *JSONView) TestVerbose(message, kind string, doc any, path, run string) {
	v.emit("info", message, kind, kind, doc, map[string]any{"@testfile": path, "@testrun": run})
}
