package views

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/engine/plan/action"
)

func TestApplyProgressText(t *testing.T) {
	long := strings.Repeat("a", 40) + strings.Repeat("é", 20) + strings.Repeat("z", 40) // 100 runes
	tests := []struct {
		name           string
		act            action.Action
		idKey, idValue string
		elapsed        time.Duration
		want           string
	}{
		{"create", action.Create, "", "", 10 * time.Second, "Still creating... [10s elapsed]"},
		{"read", action.Read, "", "", 20 * time.Second, "Still reading... [20s elapsed]"},
		{"update with id", action.Update, "id", "i-1", 70*time.Second + 300*time.Millisecond, "Still modifying... [id=i-1, 1m10s elapsed]"},
		{"delete with name", action.Delete, "name", "web", 10 * time.Second, "Still destroying... [name=web, 10s elapsed]"},
		{"key without value", action.Delete, "id", "", 10 * time.Second, "Still destroying... [10s elapsed]"},
		{"id of 80 runes whole", action.Update, "id", strings.Repeat("é", 80), 10 * time.Second,
			"Still modifying... [id=" + strings.Repeat("é", 80) + ", 10s elapsed]"},
		{"longer id shortened in the middle", action.Update, "id", long, 10 * time.Second,
			"Still modifying... [id=" + strings.Repeat("a", 39) + "..." + strings.Repeat("z", 38) + ", 10s elapsed]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HumanVoice.ApplyProgressText(tt.act, tt.idKey, tt.idValue, tt.elapsed); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestVoices: OpenTofu 1.10.6's human view calls a data source read
// reading and its JSON stream refreshing; every other operation is named
// alike in both.
func TestVoices(t *testing.T) {
	const second = time.Second
	tests := []struct {
		name  string
		voice Voice
		act   action.Action
		want  [4]string // start, still running, complete, errored
	}{
		{"human read", HumanVoice, action.Read, [4]string{"Reading...", "Still reading... [10s elapsed]", "Read complete after 1s", "Read errored after 1s"}},
		{"json read", JSONVoice, action.Read, [4]string{"Refreshing...", "Still refreshing... [10s elapsed]", "Refresh complete after 1s", "Refresh errored after 1s"}},
		{"json create", JSONVoice, action.Create, [4]string{"Creating...", "Still creating... [10s elapsed]", "Creation complete after 1s", "Creation errored after 1s"}},
		{"json delete", JSONVoice, action.Delete, [4]string{"Destroying...", "Still destroying... [10s elapsed]", "Destruction complete after 1s", "Destruction errored after 1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := [4]string{
				tt.voice.ApplyStartText(tt.act, "", ""),
				tt.voice.ApplyProgressText(tt.act, "", "", 10*second),
				tt.voice.ApplyCompleteText(tt.act, "", "", second),
				tt.voice.ApplyErroredText(tt.act, second),
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestProvisionLines(t *testing.T) {
	tests := []struct {
		msg  string
		want []string
	}{
		{"plain", []string{"plain"}},
		{"", nil},
		{"   \t", nil},
		{"trailing blanks  ", []string{"trailing blanks"}},
		{"  leading kept", []string{"  leading kept"}},
		{"a\rb\r", []string{"a", "b"}},
		{"one\ntwo\r\n\nthree", []string{"one", "two", "three"}},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ProvisionLines(tt.msg)); diff != "" {
				t.Errorf("ProvisionLines(%q) (-want +got):\n%s", tt.msg, diff)
			}
		})
	}
}
