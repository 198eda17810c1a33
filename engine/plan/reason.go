package plan

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
