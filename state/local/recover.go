package local

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tenetplan/tenet/internal/atomicfile"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// A Notice is something Read did that the user must hear about although
// the command goes on: a journal it could recover only in part, or one it
// could not apply at all. Commands show each as a warning.
type Notice struct {
	Summary string
	Detail  string
}

// Notices returns what the last Read had to say about the journal.
func (m *Manager) Notices() []Notice {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Notice(nil), m.notices...)
}

// recovery is a journal found on disk whose entries Read folds into the
// state it returns.
type recovery struct {
	lineage  string
	serial   uint64
	changes  []state.Change
	validLen int64 // bytes up to the end of the last line read
	// complete is false when some line could not be read: the journal
	// then holds bytes the state will not, so it is kept aside rather
	// than removed.
	complete bool
}

// journalFinding is what readJournal made of the journal on disk.
type journalFinding struct {
	rec *recovery // entries to fold; nil when none apply
	// keep is true when the journal holds anything not folded: it must
	// then be moved aside, never removed or truncated.
	keep   bool
	notice *Notice
}

// readJournal reads a journal left behind for the snapshot current (nil:
// no state file), whose state is cur. The rules, stated for users in
// docs/durability.md:
//
//   - A journal whose header names the snapshot read is folded in, every
//     readable line of it; lines that cannot be read are skipped and
//     reported, and the journal is kept aside at the next write.
//   - A journal for an earlier snapshot of the same lineage whose entries
//     the state already holds is what a crash between writing the state
//     and removing the journal leaves: it is dropped silently.
//   - Any other journal (another lineage or serial, a missing state file,
//     an unreadable header) is not applied, is reported, and is kept.
func readJournal(path string, current *statefile.File, cur *state.State, aside string) (journalFinding, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return journalFinding{}, nil
	}
	if err != nil {
		return journalFinding{}, fmt.Errorf("reading state journal %s: %w", path, err)
	}
	nl := bytes.IndexByte(src, '\n')
	if nl < 0 && tornHeader(src) {
		// The process died writing the header: nothing was recorded.
		return journalFinding{}, nil
	}
	var h journalHeader
	if nl < 0 || json.Unmarshal(src[:nl], &h) != nil || h.Format != journalFormat {
		return journalFinding{keep: true, notice: &Notice{
			Summary: "State journal not recognised",
			Detail: fmt.Sprintf("The state journal %s does not start with a header tenet can read, so tenet cannot tell which state its %d bytes belong to and did not apply them. Any objects recorded only there are missing from the state, and the next plan may propose to create them again.\n\nThe journal will be kept as %s when the state is next written. Inspect it before applying.",
				path, len(src), aside),
		}}, nil
	}
	changes, bad, torn, validLen := readEntries(src[nl+1:])
	validLen += int64(nl + 1)
	matches := current == nil && h.Serial == 0 ||
		current != nil && current.Lineage == h.Lineage && current.Serial == h.Serial
	if !matches {
		if current != nil && current.Lineage == h.Lineage && current.Serial > h.Serial && len(bad) == 0 && !torn && holds(cur, changes) {
			return journalFinding{}, nil
		}
		have := "there is no state file"
		if current != nil {
			have = fmt.Sprintf("the state file has lineage %s, serial %d", current.Lineage, current.Serial)
		}
		return journalFinding{keep: true, notice: &Notice{
			Summary: "State journal belongs to another state",
			Detail: fmt.Sprintf("The state journal %s records %d operations for the state with lineage %s, serial %d, but %s. tenet did not apply them: any objects recorded only there are missing from the state, and the next plan may propose to create them again.\n\nThe journal will be kept as %s when the state is next written. Inspect it before applying.",
				path, len(changes), quoteShort(h.Lineage), h.Serial, have, aside),
		}}, nil
	}
	rec := &recovery{lineage: h.Lineage, serial: h.Serial, changes: changes, validLen: validLen, complete: len(bad) == 0 && !torn}
	f := journalFinding{rec: rec, keep: !rec.complete}
	if !rec.complete {
		var what []string
		if len(bad) > 0 {
			what = append(what, fmt.Sprintf("%d lines could not be read (%s)", len(bad), lineList(bad)))
		}
		if torn {
			what = append(what, "the last line was cut short")
		}
		f.notice = &Notice{
			Summary: "State journal recovered in part",
			Detail: fmt.Sprintf("tenet recovered %d operations from the state journal %s, which an interrupted apply left behind, but %s. Those operations are not in the state: the next plan may propose to create again objects that exist.\n\nThe journal will be kept as %s when the state is next written. Inspect it before applying.",
				len(changes), path, strings.Join(what, " and "), aside),
		}
	}
	return f, nil
}

// readEntries decodes the entry lines after the header. A line that
// cannot be decoded is skipped, not the end of recovery: later lines were
// written after it and are as trustworthy as earlier ones. A last line
// without its newline is torn. validLen counts the bytes up to the end of
// the last complete line.
func readEntries(rest []byte) (changes []state.Change, bad []int, torn bool, validLen int64) {
	line := 1 // the header
	for len(rest) > 0 {
		line++
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return changes, bad, true, validLen
		}
		if c, err := decodeEntry(rest[:nl]); err == nil {
			changes = append(changes, c)
		} else {
			bad = append(bad, line)
		}
		validLen += int64(nl + 1)
		rest = rest[nl+1:]
	}
	return changes, bad, false, validLen
}

// tornHeader reports whether src, a journal without a newline, is the
// start of a header: what a crash while writing the header leaves.
func tornHeader(src []byte) bool {
	const start = `{"tenet_state_journal":`
	return len(src) == 0 || bytes.HasPrefix(src, []byte(start)) || bytes.HasPrefix([]byte(start), src)
}

// holds reports whether s already has what changes leave behind (the last
// change to each object or output wins).
func holds(s *state.State, changes []state.Change) bool {
	if s == nil {
		return false
	}
	last := map[string]state.Change{}
	for _, c := range changes {
		key := "output " + c.Output
		if c.Output == "" {
			key = c.Addr.String() + " " + string(c.Deposed)
		}
		last[key] = c
	}
	for _, c := range last {
		if c.Output != "" {
			o := s.Outputs[c.Output]
			if (o == nil) != (c.OutputValue == nil) {
				return false
			}
			if o != nil && (o.Sensitive != c.OutputValue.Sensitive || !o.Value.RawEquals(c.OutputValue.Value)) {
				return false
			}
			continue
		}
		obj := s.ResourceInstanceObject(c.Addr, c.Deposed)
		if (obj == nil) != (c.Object == nil) || obj != nil && !obj.Equal(c.Object) {
			return false
		}
	}
	return true
}

// lineList renders line numbers for a message, the first few only.
func lineList(lines []int) string {
	const show = 5
	var parts []string
	for i, l := range lines {
		if i == show {
			parts = append(parts, fmt.Sprintf("and %d more", len(lines)-show))
			break
		}
		parts = append(parts, strconv.Itoa(l))
	}
	if len(lines) == 1 {
		return "line " + parts[0]
	}
	return "lines " + strings.Join(parts, ", ")
}

// quoteShort shortens input echoed in a message: a hostile journal or
// state file must not fill the terminal.
func quoteShort(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(s[:limit], ""), len(s))
}

// asidePath is where a journal that must be kept goes: beside it, named
// with the time it was read.
func asidePath(journal string, now time.Time) string {
	return journal + "." + now.UTC().Format("20060102T150405Z")
}

// moveJournalAside renames the journal to m.journalAside (or, if that
// name was taken since, a free name beside it), keeping every byte.
func (m *Manager) moveJournalAside() error {
	dest := m.journalAside
	for i := 1; ; i++ {
		if _, err := os.Lstat(dest); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dest = fmt.Sprintf("%s-%d", m.journalAside, i)
	}
	if err := renameFile(m.journalPath, dest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("keeping the state journal %s as %s: %w", m.journalPath, dest, err)
	}
	m.journalAside = ""
	atomicfile.SyncDir(filepath.Dir(m.journalPath))
	return nil
}
