package jsonui

import (
	"fmt"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/cli/views"
)

// uiReason maps a JSON plan action_reason to its JSON UI spelling: replace
// reasons are renamed, delete and read reasons are kept.
func uiReason(reason string) string {
	switch reason {
	case "replace_because_tainted":
		return "tainted"
	case "replace_by_request":
		return "requested"
	case "replace_by_triggers":
		return "replace_triggered_by"
	case "replace_because_cannot_update":
		return "cannot_update"
	}
	return reason
}

// changeMessageOf builds the planned_change / resource_drift payload; a
// no-op that moves or imports is reported as "move" or "import".
func changeMessageOf(rc *planjson.ResourceChange, act action.Action) ChangeMessage {
	m := ChangeMessage{
		Resource:        NewResourceAddr(rc.Address),
		Action:          act.UIName(),
		Reason:          uiReason(rc.ActionReason),
		GeneratedConfig: rc.Change.GeneratedConfig,
	}
	if rc.Moved() {
		prev := NewResourceAddr(rc.PreviousAddress)
		m.PreviousResource = &prev
	}
	if rc.Importing() {
		m.Importing = &ImportingField{ID: rc.Change.Importing.ID}
	}
	if act == action.NoOp {
		switch {
		case rc.Moved():
			m.Action = "move"
		case rc.Importing():
			m.Action = "import"
		}
	}
	return m
}

// EmitPlan writes the messages `plan -json` ends with, from a JSON plan
// document: resource_drift (non-no-op drift; every drift entry in
// refresh-only mode), planned_change for each change that does something,
// moves or imports (data-source deletions skipped), change_summary, and
// outputs when the plan has root output changes. mode is one of the Mode*
// constants.
func EmitPlan(v *JSONView, planJSON []byte, mode string) error {
	doc, err := planjson.Decode(planJSON)
	if err != nil {
		return err
	}
	for i := range doc.ResourceDrift {
		rc := doc.ResourceDrift[i]
		act, err := action.FromJSONActions(rc.Change.Actions)
		if err != nil {
			return fmt.Errorf("%s: %w", rc.Address, err)
		}
		if act != action.NoOp || mode == views.ModeRefreshOnly {
			v.ResourceDrift(changeMessageOf(rc, act))
		}
	}
	for i := range doc.ResourceChanges {
		rc := doc.ResourceChanges[i]
		act, err := action.FromJSONActions(rc.Change.Actions)
		if err != nil {
			return fmt.Errorf("%s: %w", rc.Address, err)
		}
		if act == action.Delete && rc.Mode == "data" {
			continue
		}
		if act != action.NoOp || rc.Moved() || rc.Importing() {
			v.PlannedChange(changeMessageOf(rc, act))
		}
	}
	sum, err := summarize(doc)
	if err != nil {
		return err
	}
	v.ChangeSummary(sum)
	if len(doc.OutputChanges) > 0 {
		outs := make(map[string]OutputMessage, len(doc.OutputChanges))
		for name, ch := range doc.OutputChanges {
			act, err := action.FromJSONActions(ch.Actions)
			if err != nil {
				return fmt.Errorf("output %s: %w", name, err)
			}
			outs[name] = OutputMessage{Sensitive: ch.AfterSensitive == true || ch.BeforeSensitive == true, Action: act.UIName()}
		}
		v.Outputs(outs)
	}
	return nil
}

func summarize(doc *planjson.Document) (views.ChangeSummary, error) {
	sum := views.ChangeSummary{Operation: views.OperationPlan}
	for i := range doc.ResourceChanges {
		rc := doc.ResourceChanges[i]
		act, err := action.FromJSONActions(rc.Change.Actions)
		if err != nil {
			return sum, fmt.Errorf("%s: %w", rc.Address, err)
		}
		if act == action.Delete && rc.Mode == "data" {
			continue
		}
		switch act {
		case action.Create:
			sum.Add++
		case action.Update:
			sum.Change++
		case action.Delete:
			sum.Remove++
		case action.DeleteThenCreate, action.CreateThenDelete:
			sum.Add++
			sum.Remove++
		case action.Forget:
			sum.Forget++
		}
		if rc.Importing() {
			sum.Import++
		}
	}
	return sum, nil
}
