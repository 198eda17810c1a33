package views

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/tenetplan/tenet/engine/plan/action"
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

// Voice is how a view speaks of an operation. They differ only for a data
// source read, which OpenTofu's human view calls reading ("Reading...",
// "Read complete after 1s") and its JSON stream refreshing
// ("Refreshing...", "Refresh complete after 1s").
type Voice uint8

const (
	HumanVoice Voice = iota
	JSONVoice
)

// verb is the operation's lower-case progress verb: "creating".
func (v Voice) verb(act action.Action) string {
	if v == JSONVoice && act == action.Read {
		return "refreshing"
	}
	return act.ProgressVerb()
}

// noun is the finished operation's noun: "Creation".
func (v Voice) noun(act action.Action) string {
	if v == JSONVoice && act == action.Read {
		return "Refresh"
	}
	return act.CompletionNoun()
}

// ApplyStartText is the line when an operation doing act starts.
func (v Voice) ApplyStartText(act action.Action, idKey, idValue string) string {
	verb := v.verb(act)
	s := strings.ToUpper(verb[:1]) + verb[1:] + "..."
	if act == action.Create || act == action.Read { // as OpenTofu: no id for a create or a data source read
		return s
	}
	return s + IDSuffix(idKey, idValue)
}

// ApplyProgressText is the line while the operation is still running:
// "Still modifying... [id=abc, 10s elapsed]". The human view names the
// object by its id, as OpenTofu's does, shortening a long one; the JSON
// view passes no id.
func (v Voice) ApplyProgressText(act action.Action, idKey, idValue string, elapsed time.Duration) string {
	id := ""
	if idKey != "" && idValue != "" {
		id = idKey + "=" + shortID(idValue) + ", "
	}
	return fmt.Sprintf("Still %s... [%s%s elapsed]", v.verb(act), id, formatElapsed(elapsed))
}

// maxIDRunes is the longest id a still-running line shows whole; a longer
// one keeps its start and end around "...", since both tend to matter
// (a prefix names the kind of object, a suffix the object).
const maxIDRunes = 80

func shortID(id string) string {
	r := []rune(id)
	if len(r) <= maxIDRunes {
		return id
	}
	const head = maxIDRunes/2 - 1
	const tail = maxIDRunes - head - len("...")
	return string(r[:head]) + "..." + string(r[len(r)-tail:])
}

// ApplyCompleteText is the line when the operation completed.
func (v Voice) ApplyCompleteText(act action.Action, idKey, idValue string, elapsed time.Duration) string {
	s := fmt.Sprintf("%s complete after %s", v.noun(act), formatElapsed(elapsed))
	if act != action.Delete && act != action.Forget {
		s += IDSuffix(idKey, idValue)
	}
	return s
}

// ApplyErroredText is the line when the operation failed.
func (v Voice) ApplyErroredText(act action.Action, elapsed time.Duration) string {
	return fmt.Sprintf("%s errored after %s", v.noun(act), formatElapsed(elapsed))
}

// RefreshStartText is the line when reading an object starts.
func RefreshStartText(idKey, idValue string) string {
	return "Refreshing state..." + IDSuffix(idKey, idValue)
}

// RefreshCompleteText is the line when reading an object completed.
func RefreshCompleteText(idKey, idValue string) string {
	return "Refresh complete" + IDSuffix(idKey, idValue)
}

// ProvisionStartText is the line when a provisioner of typ starts.
func ProvisionStartText(typ string) string {
	return "Provisioning with '" + typ + "'..."
}

// ProvisionLines splits what a provisioner reported in one piece into the
// lines both UIs show: split at carriage returns as well as newlines (a
// progress counter's redraws become lines), trailing blanks dropped, and
// blank lines left out.
func ProvisionLines(msg string) []string {
	var out []string
	for msg != "" {
		i := strings.IndexByte(msg, '\n')
		if i < 0 {
			i = strings.IndexByte(msg, '\r')
		}
		var line string
		if i < 0 {
			line, msg = msg, ""
		} else {
			line, msg = msg[:i], msg[i+1:]
		}
		line = strings.TrimSuffix(line, "\r")
		if line = strings.TrimRightFunc(line, unicode.IsSpace); line != "" {
			out = append(out, line)
		}
	}
	return out
}
