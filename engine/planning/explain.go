package planning

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/rules"
)

// Explanations: what `tenet explain` shows for a change is the provenance
// (which rules fired) and a digest of the facts the rules decided on. Both
// are recorded per change key and kept in the plan.

// recordExplanation keeps the facts of a recorded change, and adds the
// prepare stage's provenance (ignore_changes, team ignore_paths and
// equivalent) after the decision's.
func (w *planWalker) recordExplanation(c *plan.ResourceInstanceChange, it *instPlan) {
	f := decisionFacts(&it.fact, it.ignore, w.opts.Mode == plan.NormalMode)
	var extra []provenance.Rule
	if it.ignore != nil {
		extra = append(extra, it.ignore.Provenance...)
	}
	// The walk sets PrevRunAddr only at the end (finishMoves).
	if prev, moved := w.moves.previousAddr(c.Addr); moved && len(w.teamMoves) > 0 {
		for _, m := range w.teamMoves {
			if movedBy(m.From, prev) {
				r := m.Rule
				r.Message = "moved " + m.From + " to " + m.To
				extra = append(extra, r)
			}
		}
	}
	w.res.addExplanation(c.ChangeKey(), f, extra)
}

// movedBy reports whether a move from the address from covers an object
// whose previous address was prev: the instance itself, its resource, or a
// module instance or call containing it.
func movedBy(from string, prev addrs.AbsResourceInstance) bool {
	if from == prev.String() || from == prev.ContainingResource().String() {
		return true
	}
	mod := prev.Module.String()
	return mod != "" && (mod == from || strings.HasPrefix(mod+".", from+".") || strings.HasPrefix(mod, from+"["))
}

// decisionFacts digests the rules input of one instance object.
// Orphan facts only mean something in normal mode.
func decisionFacts(in *rules.Instance, prep *rules.Preparation, normal bool) *plan.DecisionFacts {
	f := &plan.DecisionFacts{
		Mode:                in.Mode,
		HasConfig:           in.HasConfig,
		ConfigKnown:         in.ConfigKnown && in.Mode == "data",
		HasPrior:            in.HasPrior,
		Tainted:             in.Tainted,
		PlannedEqualsPrior:  in.PlannedEqualsPrior,
		ForceReplace:        in.ForceReplace,
		Triggered:           in.Triggered,
		DependencyPending:   in.DependencyPending,
		InCheck:             in.InCheck,
		CreateBeforeDestroy: in.Lifecycle.CreateBeforeDestroy,
		PreventDestroy:      in.Lifecycle.PreventDestroy,
	}
	for _, p := range in.RequiresReplace {
		f.RequiresReplace = append(f.RequiresReplace, attrpath.String(p))
	}
	if prep != nil {
		f.IgnoreAll = prep.IgnoreAll
		for _, p := range prep.Ignore {
			f.Ignored = append(f.Ignored, attrpath.String(p))
		}
	}
	if normal && !in.HasConfig && in.Orphan.Repetition != "" {
		o := in.Orphan
		f.Orphan = &plan.OrphanFacts{
			ResourceInConfig: o.ResourceInConfig, Moved: o.Moved, ModuleDeclared: o.ModuleDeclared,
			Repetition: o.Repetition, InExpansion: o.InExpansion,
		}
	}
	if in.Removed != nil {
		f.Removed, f.RemovedDestroy = true, in.Removed.Destroy
	}
	return f
}

// rootVariablesForRules gives team rules the root module's input
// variables (input.run.variables) before the walk evaluates them: the value
// given on the command line or in files, else the default, converted to the
// declared type. Validation stays with the walk, which reports its errors.
func rootVariablesForRules(cfg *config.Config, given map[string]config.VariableValue) map[string]cty.Value {
	out := make(map[string]cty.Value, len(cfg.Root.Variables))
	for name, v := range cfg.Root.Variables {
		raw := cty.NilVal
		if vv, ok := given[name]; ok {
			raw = vv.Value
		}
		if raw == cty.NilVal || (raw.IsNull() && !v.Nullable) {
			raw = v.Default
		}
		if raw == cty.NilVal {
			continue
		}
		val, err := eval.ConvertVariable(v, raw)
		if err != nil {
			continue
		}
		if v.Sensitive {
			// Rules cut sensitive values out of team messages.
			val = val.Mark(eval.SensitiveMark)
		}
		out[name] = val
	}
	return out
}
