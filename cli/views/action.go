package views

import "fmt"

// action is a planned action as the views distinguish them.
type action int

const (
	actNoOp action = iota
	actCreate
	actRead
	actUpdate
	actDeleteThenCreate
	actCreateThenDelete
	actDelete
	actForget
)

func parseActions(actions []string) (action, error) {
	switch len(actions) {
	case 1:
		switch actions[0] {
		case "no-op":
			return actNoOp, nil
		case "create":
			return actCreate, nil
		case "read":
			return actRead, nil
		case "update":
			return actUpdate, nil
		case "delete":
			return actDelete, nil
		case "forget":
			return actForget, nil
		}
	case 2:
		switch {
		case actions[0] == "delete" && actions[1] == "create":
			return actDeleteThenCreate, nil
		case actions[0] == "create" && actions[1] == "delete":
			return actCreateThenDelete, nil
		}
	}
	return actNoOp, fmt.Errorf("unsupported change actions %q", actions)
}

func (a action) isReplace() bool { return a == actDeleteThenCreate || a == actCreateThenDelete }

// uiName is the JSON-UI spelling of the action (§15).
func (a action) uiName() string {
	switch a {
	case actCreate:
		return "create"
	case actRead:
		return "read"
	case actUpdate:
		return "update"
	case actDeleteThenCreate, actCreateThenDelete:
		return "replace"
	case actDelete:
		return "delete"
	case actForget:
		return "remove"
	}
	return "noop"
}
