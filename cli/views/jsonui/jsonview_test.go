package jsonui

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

var fixedTime = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func newTestJSONView(buf *bytes.Buffer) *JSONView {
	v := NewJSONView(buf)
	v.SetClock(func() time.Time { return fixedTime })
	return v
}

func decodeLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestJSONViewCommonKeys(t *testing.T) {
	var buf bytes.Buffer
	v := newTestJSONView(&buf)
	v.Version("0.1.0")
	want := `{"@level":"info","@message":"tenet 0.1.0","@module":"tofu.ui","@timestamp":"2026-11-21T10:00:00.000000Z","tofu":"0.1.0","type":"version","ui":"1.2"}` + "\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestJSONViewHooks(t *testing.T) {
	tests := []struct {
		name string
		emit func(v *JSONView)
		want map[string]any
	}{
		{"apply_start create", func(v *JSONView) { v.ApplyStart(`module.m[0].terraform_data.a["k"]`, action.Create, "", "") }, map[string]any{
			"@level": "info", "@message": `module.m[0].terraform_data.a["k"]: Creating...`, "type": "apply_start",
			"hook": map[string]any{"action": "create", "resource": map[string]any{
				"addr": `module.m[0].terraform_data.a["k"]`, "module": "module.m[0]", "resource": `terraform_data.a["k"]`,
				"implied_provider": "terraform", "resource_type": "terraform_data", "resource_name": "a", "resource_key": "k"}}}},
		{"apply_start delete with id", func(v *JSONView) { v.ApplyStart("terraform_data.a[1]", action.Delete, "id", "abc") }, map[string]any{
			"@level": "info", "@message": "terraform_data.a[1]: Destroying... [id=abc]", "type": "apply_start",
			"hook": map[string]any{"action": "delete", "id_key": "id", "id_value": "abc", "resource": map[string]any{
				"addr": "terraform_data.a[1]", "module": "", "resource": "terraform_data.a[1]",
				"implied_provider": "terraform", "resource_type": "terraform_data", "resource_name": "a", "resource_key": 1.0}}}},
		{"apply_complete", func(v *JSONView) { v.ApplyComplete("data.x_y.z", action.Read, "id", "1", 2500*time.Millisecond) }, map[string]any{
			"@level": "info", "@message": "data.x_y.z: Refresh complete after 2s [id=1]", "type": "apply_complete",
			"hook": map[string]any{"action": "read", "id_key": "id", "id_value": "1", "elapsed_seconds": 2.0, "resource": map[string]any{
				"addr": "data.x_y.z", "module": "", "resource": "data.x_y.z",
				"implied_provider": "x", "resource_type": "x_y", "resource_name": "z", "resource_key": nil}}}},
		{"apply_errored", func(v *JSONView) { v.ApplyErrored("a_b.c", action.Update, time.Second) }, map[string]any{
			"@level": "info", "@message": "a_b.c: Modifications errored after 1s", "type": "apply_errored",
			"hook": map[string]any{"action": "update", "elapsed_seconds": 1.0, "resource": map[string]any{
				"addr": "a_b.c", "module": "", "resource": "a_b.c",
				"implied_provider": "a", "resource_type": "a_b", "resource_name": "c", "resource_key": nil}}}},
		{"apply_progress", func(v *JSONView) { v.ApplyProgress("a_b.c", action.Update, "id", "x1", 10*time.Second) }, map[string]any{
			"@level": "info", "@message": "a_b.c: Still modifying... [10s elapsed]", "type": "apply_progress",
			"hook": map[string]any{"action": "update", "elapsed_seconds": 10.0, "resource": map[string]any{
				"addr": "a_b.c", "module": "", "resource": "a_b.c",
				"implied_provider": "a", "resource_type": "a_b", "resource_name": "c", "resource_key": nil}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			tt.emit(newTestJSONView(&buf))
			got := decodeLines(t, buf.String())[0]
			delete(got, "@timestamp")
			delete(got, "@module")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestJSONViewNoErroredRead: as in OpenTofu's stream, a data source read
// that fails has no apply_errored message (only its diagnostics follow);
// a failed create has one.
func TestJSONViewNoErroredRead(t *testing.T) {
	var buf bytes.Buffer
	v := newTestJSONView(&buf)
	v.ApplyErrored("data.x_y.z", action.Read, time.Second)
	if buf.Len() != 0 {
		t.Errorf("a failed read wrote %s", buf.String())
	}
	v.ApplyErrored("x_y.z", action.Create, time.Second)
	if got := decodeLines(t, buf.String())[0]["@message"]; got != "x_y.z: Creation errored after 1s" {
		t.Errorf("a failed create wrote %q", got)
	}
}

func TestJSONViewConcurrentWritesStayWhole(t *testing.T) {
	var buf bytes.Buffer
	v := newTestJSONView(&buf)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.ApplyStart("terraform_data.a", action.Create, "", "")
			v.ApplyComplete("terraform_data.a", action.Create, "id", "x", 0)
		}()
	}
	wg.Wait()
	if got := len(decodeLines(t, buf.String())); got != 100 {
		t.Errorf("got %d whole lines, want 100", got)
	}
}

func TestEmitPlan(t *testing.T) {
	tests := []struct {
		scenario string
		mode     string
		want     []string // "type @message [action reason]"
	}{
		{"012-replace-by-request", views.ModeNormal, []string{
			"planned_change terraform_data.a: Plan to replace requested",
			"planned_change terraform_data.b: Plan to update",
			"change_summary Plan: 1 to add, 1 to change, 1 to destroy.",
		}},
		{"062-moved-instance-key", views.ModeNormal, []string{
			`planned_change terraform_data.a["y"]: Plan to move`,
			"change_summary Plan: 0 to add, 0 to change, 0 to destroy.",
		}},
		{"073-moved-refresh-only", views.ModeRefreshOnly, []string{
			"resource_drift terraform_data.b: Drift detected (move)",
			"change_summary Plan: 0 to add, 0 to change, 0 to destroy.",
		}},
		{"085-import-terraform-data", views.ModeNormal, []string{
			"planned_change terraform_data.a: Plan to update",
			"change_summary Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.",
		}},
		{"080-removed-forget", views.ModeNormal, []string{
			"planned_change terraform_data.a: Plan to remove delete_because_no_resource_config",
			"change_summary Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget.",
		}},
		{"015-data-read-deferred", views.ModeNormal, []string{
			"planned_change data.terraform_remote_state.dep: Plan to read read_because_dependency_pending",
			"planned_change data.terraform_remote_state.unknown_cfg: Plan to read read_because_config_unknown",
			"planned_change terraform_data.a: Plan to create",
			"change_summary Plan: 1 to add, 0 to change, 0 to destroy.",
			"outputs Outputs: 2",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			planJSON, err := os.ReadFile("../../../testdata/conformance/scenarios/" + tt.scenario + "/expected/plan.raw.json")
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := EmitPlan(newTestJSONView(&buf), planJSON, tt.mode); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range decodeLines(t, buf.String()) {
				line := m["type"].(string) + " " + m["@message"].(string)
				if ch, ok := m["change"].(map[string]any); ok {
					if r, ok := ch["reason"].(string); ok {
						line += " " + r
					}
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmitPlanOutputsAndMove(t *testing.T) {
	plan := `{"format_version":"1.2","resource_changes":[
	 {"address":"a_b.new","previous_address":"a_b.old","mode":"managed","type":"a_b","name":"new","change":{"actions":["no-op"],"before":{},"after":{},"importing":{"id":"i-1"}}}],
	 "output_changes":{"o":{"actions":["no-op"],"before":"x","after":"x","after_unknown":false,"before_sensitive":true,"after_sensitive":true}}}`
	var buf bytes.Buffer
	if err := EmitPlan(newTestJSONView(&buf), []byte(plan), views.ModeNormal); err != nil {
		t.Fatal(err)
	}
	lines := decodeLines(t, buf.String())
	change := lines[0]["change"].(map[string]any)
	if change["action"] != "move" || change["previous_resource"].(map[string]any)["addr"] != "a_b.old" || change["importing"].(map[string]any)["id"] != "i-1" {
		t.Errorf("move+import change = %v", change)
	}
	if diff := cmp.Diff(map[string]any{"o": map[string]any{"sensitive": true, "action": "noop"}}, lines[2]["outputs"]); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}

func TestChangeSummaryText(t *testing.T) {
	tests := []struct {
		in   views.ChangeSummary
		want string
	}{
		{views.ChangeSummary{Add: 1, Operation: views.OperationApply}, "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."},
		{views.ChangeSummary{Import: 1, Add: 1, Remove: 1, Forget: 2, Operation: views.OperationApply}, "Apply complete! Resources: 1 imported, 1 added, 0 changed, 1 destroyed, 2 forgotten."},
		{views.ChangeSummary{Remove: 3, Operation: views.OperationDestroy}, "Destroy complete! Resources: 3 destroyed."},
		{views.ChangeSummary{Add: 2, Change: 1, Remove: 1, Import: 1, Operation: views.OperationPlan}, "Plan: 1 to import, 2 to add, 1 to change, 1 to destroy."},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestJSONViewDiagnostic(t *testing.T) {
	var buf bytes.Buffer
	v := newTestJSONView(&buf)
	v.Diagnostic(&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Careful", Detail: "Look."}, nil)
	got := decodeLines(t, buf.String())[0]
	want := map[string]any{"@level": "warn", "@message": "Warning: Careful", "@module": "tofu.ui", "@timestamp": "2026-11-21T10:00:00.000000Z",
		"type": "diagnostic", "diagnostic": map[string]any{"severity": "warning", "summary": "Careful", "detail": "Look."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
