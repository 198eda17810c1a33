package views

import (
	"fmt"
	"strings"
)

// Plan modes, which the plan document does not record.
const (
	ModeNormal      = "normal"
	ModeDestroy     = "destroy"
	ModeRefreshOnly = "refresh-only"
)

// Operations for ChangeSummary.Operation.
const (
	OperationPlan    = "plan"
	OperationApply   = "apply"
	OperationDestroy = "destroy"
)

// ChangeSummary counts the changes of a plan or an apply.
type ChangeSummary struct {
	Add       int    `json:"add"`
	Change    int    `json:"change"`
	Import    int    `json:"import"`
	Remove    int    `json:"remove"`
	Forget    int    `json:"forget"`
	Operation string `json:"operation"`
}

// String is the summary sentence people see, for plan, apply and destroy.
func (s ChangeSummary) String() string {
	switch s.Operation {
	case OperationApply:
		return "Apply complete! Resources: " + applyCounts(s) + "."
	case OperationDestroy:
		return fmt.Sprintf("Destroy complete! Resources: %d destroyed.", s.Remove)
	}
	return "Plan: " + PlanSummaryLine(s.Import, s.Add, s.Change, s.Remove, s.Forget)
}

func applyCounts(s ChangeSummary) string {
	out := ""
	if s.Import > 0 {
		out = fmt.Sprintf("%d imported, ", s.Import)
	}
	out += fmt.Sprintf("%d added, %d changed, %d destroyed", s.Add, s.Change, s.Remove)
	if s.Forget > 0 {
		out += fmt.Sprintf(", %d forgotten", s.Forget)
	}
	return out
}

// PlanSummaryLine is the counts of the plan summary line, after "Plan: ".
func PlanSummaryLine(imports, add, change, destroy, forget int) string {
	var b strings.Builder
	if imports > 0 {
		fmt.Fprintf(&b, "%d to import, ", imports)
	}
	fmt.Fprintf(&b, "%d to add, %d to change, %d to destroy", add, change, destroy)
	if forget > 0 {
		fmt.Fprintf(&b, ", %d to forget", forget)
	}
	b.WriteString(".")
	return b.String()
}
