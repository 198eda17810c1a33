package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
)

// movesExcludedByTargeting reports moves that -target or -exclude would
// split: an object moved in this plan must have both its old and its new
// address inside the targeted set (semantics §7.4), or the state would be
// left half-moved.
func (w *planWalker) movesExcludedByTargeting() hcl.Diagnostics {
	if w.moves == nil || len(w.moves.moved) == 0 || (len(w.opts.Targets) == 0 && len(w.opts.Excludes) == 0) {
		return nil
	}
	covered := func(addr addrs.AbsResourceInstance) bool {
		if len(w.opts.Targets) > 0 {
			for _, t := range w.opts.Targets {
				if targetMatchesInstance(t, addr) {
					return true
				}
			}
			return false
		}
		for _, t := range w.opts.Excludes {
			if targetMatchesInstance(t, addr) {
				return false
			}
		}
		return true
	}
	missing := map[string]bool{}
	for _, m := range w.moves.moved {
		if m.orig.Equal(m.now) {
			continue
		}
		for _, end := range []addrs.AbsResourceInstance{m.orig, m.now} {
			if !covered(end) {
				missing[end.String()] = true
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for a := range missing {
		names = append(names, a)
	}
	sort.Strings(names)
	var detail strings.Builder
	if len(w.opts.Targets) > 0 {
		detail.WriteString("Resource instances in your current state have moved to new addresses in the latest configuration. tenet must include those moves in every plan, but the -target options leave out these addresses:\n")
		for _, a := range names {
			fmt.Fprintf(&detail, "\n  -target=%q", a)
		}
		detail.WriteString("\n\nAdd these -target options, or plan without targeting, so that both ends of each move are included.")
	} else {
		detail.WriteString("Resource instances in your current state have moved to new addresses in the latest configuration. tenet must include those moves in every plan, but the -exclude options leave out these addresses:\n")
		for _, a := range names {
			fmt.Fprintf(&detail, "\n  %s", a)
		}
		detail.WriteString("\n\nRemove the -exclude options that cover them, or plan without them.")
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Moved resource instances excluded by targeting",
		Detail:   detail.String(),
	}}
}
