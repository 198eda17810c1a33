package views

import "fmt"

// Action is a planned action as the UIs distinguish them.
type Action int

const (
	ActNoOp Action = iota
	ActCreate
	ActRead
	ActUpdate
	ActDeleteThenCreate
	ActCreateThenDelete
	ActDelete
	ActForget
)

// ParseActions reads the actions list of a JSON plan change.
func ParseActions(actions []string) (Action, error) {
	switch len(actions) {
	case 1:
		switch actions[0] {
		case "no-op":
			return ActNoOp, nil
		case "create":
			return ActCreate, nil
		case "read":
			return ActRead, nil
		case "update":
			return ActUpdate, nil
		case "delete":
			return ActDelete, nil
		case "forget":
			return ActForget, nil
		}
	case 2:
		switch {
		case actions[0] == "delete" && actions[1] == "create":
			return ActDeleteThenCreate, nil
		case actions[0] == "create" && actions[1] == "delete":
			return ActCreateThenDelete, nil
		}
	}
	return ActNoOp, fmt.Errorf("unsupported change actions %q", actions)
}

// IsReplace reports whether a replaces the object.
func (a Action) IsReplace() bool { return a == ActDeleteThenCreate || a == ActCreateThenDelete }

// UIName is the JSON-UI spelling of the Action (§15).
func (a Action) UIName() string {
	switch a {
	case ActCreate:
		return "create"
	case ActRead:
		return "read"
	case ActUpdate:
		return "update"
	case ActDeleteThenCreate, ActCreateThenDelete:
		return "replace"
	case ActDelete:
		return "delete"
	case ActForget:
		return "remove"
	}
	return "noop"
}
