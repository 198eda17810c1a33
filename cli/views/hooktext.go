package views

import (
	"fmt"
	"time"
)

// The progress lines of apply and refresh, which the human UI prints and
// the JSON UI carries as messages.

// IDSuffix names the object by its identifying attribute, when it has one.
func IDSuffix(idKey, idValue string) string {
	if idKey == "" || idValue == "" {
		return ""
	}
	return " [" + idKey + "=" + idValue + "]"
}

// formatElapsed shows whole seconds, e.g. "1s", "1m2s".
func formatElapsed(d time.Duration) string {
	return d.Truncate(time.Second).String()
}

// ApplyStartText is the line when applying the action starts.
func ApplyStartText(action, idKey, idValue string) string {
	switch action {
	case HookCreate:
		return "Creating..."
	case HookUpdate:
		return "Modifying..." + IDSuffix(idKey, idValue)
	case HookDelete:
		return "Destroying..." + IDSuffix(idKey, idValue)
	case HookRead:
		return "Reading..." // as OpenTofu: no id for a data source read
	case HookForget:
		return "Removing..." + IDSuffix(idKey, idValue)
	}
	return "Applying..." + IDSuffix(idKey, idValue)
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

// ApplyProgressText is the line while the action is still running.
func ApplyProgressText(action string, elapsed time.Duration) string {
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

// ApplyCompleteText is the line when the action completed.
func ApplyCompleteText(action, idKey, idValue string, elapsed time.Duration) string {
	s := fmt.Sprintf("%s complete after %s", completionNoun(action), formatElapsed(elapsed))
	if action != HookDelete && action != HookForget {
		s += IDSuffix(idKey, idValue)
	}
	return s
}

// ApplyErroredText is the line when the action failed.
func ApplyErroredText(action string, elapsed time.Duration) string {
	return fmt.Sprintf("%s errored after %s", completionNoun(action), formatElapsed(elapsed))
}

// RefreshStartText is the line when reading an object starts.
func RefreshStartText(idKey, idValue string) string {
	return "Refreshing state..." + IDSuffix(idKey, idValue)
}

// RefreshCompleteText is the line when reading an object completed.
func RefreshCompleteText(idKey, idValue string) string {
	return "Refresh complete" + IDSuffix(idKey, idValue)
}
