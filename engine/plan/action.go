package plan

// String gives the constant's name (for logs and test failures).
func (a Action) String() string {
	switch a {
	case NoOp:
		return "NoOp"
	case Create:
		return "Create"
	case Read:
		return "Read"
	case Update:
		return "Update"
	case DeleteThenCreate:
		return "DeleteThenCreate"
	case CreateThenDelete:
		return "CreateThenDelete"
	case Delete:
		return "Delete"
	case Forget:
		return "Forget"
	}
	return "Action(" + string(rune(a)) + ")"
}

// Valid reports whether a is one of the declared actions.
func (a Action) Valid() bool {
	switch a {
	case NoOp, Create, Read, Update, DeleteThenCreate, CreateThenDelete, Delete, Forget:
		return true
	}
	return false
}

// The JSON plan action lists are shared, read-only slices.
var (
	jsonNoOp             = []string{"no-op"}
	jsonCreate           = []string{"create"}
	jsonRead             = []string{"read"}
	jsonUpdate           = []string{"update"}
	jsonDeleteThenCreate = []string{"delete", "create"}
	jsonCreateThenDelete = []string{"create", "delete"}
	jsonDelete           = []string{"delete"}
	jsonForget           = []string{"forget"}
)

// JSONActions is the `change.actions` list of the JSON plan. The result is
// shared; callers must not modify it.
func (a Action) JSONActions() []string {
	switch a {
	case NoOp:
		return jsonNoOp
	case Create:
		return jsonCreate
	case Read:
		return jsonRead
	case Update:
		return jsonUpdate
	case DeleteThenCreate:
		return jsonDeleteThenCreate
	case CreateThenDelete:
		return jsonCreateThenDelete
	case Delete:
		return jsonDelete
	case Forget:
		return jsonForget
	}
	return nil
}

// Symbol is the three-column marker the human plan puts before a change.
func (a Action) Symbol() string {
	switch a {
	case Create:
		return "  +"
	case Read:
		return " <="
	case Update:
		return "  ~"
	case DeleteThenCreate:
		return "-/+"
	case CreateThenDelete:
		return "+/-"
	case Delete:
		return "  -"
	case Forget:
		return "  ."
	}
	return "   "
}

// UIAction is the `action` of the machine-readable UI (-json) for the
// action alone; see ResourceInstanceChange.UIAction for moves and imports.
func (a Action) UIAction() string {
	switch a {
	case NoOp:
		return "noop"
	case Create:
		return "create"
	case Read:
		return "read"
	case Update:
		return "update"
	case DeleteThenCreate, CreateThenDelete:
		return "replace"
	case Delete:
		return "delete"
	case Forget:
		return "remove"
	}
	return "unknown"
}

// UIAction is the machine-readable UI action of the change: a NoOp that
// moves the object reports "move", one that imports it "import" (a move
// takes precedence).
func (c *ResourceInstanceChange) UIAction() string {
	if c.Action == NoOp {
		if c.Moved() {
			return "move"
		}
		if c.Importing != nil {
			return "import"
		}
	}
	return c.Action.UIAction()
}

// Moved reports whether the object had another address in the previous run.
func (c *ResourceInstanceChange) Moved() bool {
	return c.PrevRunAddr.Resource.Resource.Mode != 0 && !c.PrevRunAddr.Equal(c.Addr)
}

// UIReason is the `reason` of the machine-readable UI; "" when there is none.
func (r Reason) UIReason() string {
	switch r {
	case ReasonNone:
		return ""
	case ReasonReplaceBecauseTainted:
		return "tainted"
	case ReasonReplaceByRequest:
		return "requested"
	case ReasonReplaceByTriggers:
		return "replace_triggered_by"
	case ReasonReplaceBecauseCannotUpdate:
		return "cannot_update"
	case ReasonDeleteBecauseNoResourceConfig, ReasonDeleteBecauseWrongRepetition,
		ReasonDeleteBecauseCountIndex, ReasonDeleteBecauseEachKey,
		ReasonDeleteBecauseNoModule, ReasonDeleteBecauseNoMoveTarget,
		ReasonReadBecauseConfigUnknown, ReasonReadBecauseDependencyPending,
		ReasonReadBecauseCheckNested:
		return string(r)
	}
	return "unknown"
}

// Valid reports whether r is one of the declared reasons (ReasonNone included).
func (r Reason) Valid() bool {
	return r == ReasonNone || r.UIReason() != "unknown"
}

// String is the mode's UI name: "normal", "destroy" or "refresh-only".
func (m Mode) String() string {
	switch m {
	case NormalMode:
		return "normal"
	case DestroyMode:
		return "destroy"
	case RefreshOnlyMode:
		return "refresh-only"
	}
	return "unknown"
}

// Valid reports whether m is one of the declared modes.
func (m Mode) Valid() bool {
	return m == NormalMode || m == DestroyMode || m == RefreshOnlyMode
}
