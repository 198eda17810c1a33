package plan

// DecisionFacts summarises the facts the rules decided a change on, for
// `tenet explain` and for compliance policies (the JSON plan's
// tenet.facts). It is a compact digest of the rules input, not all of it:
// values are left out (the change has them). Field names are the rules'
// input names.
type DecisionFacts struct {
	Mode                string   `json:"mode,omitempty"` // "managed" | "data"
	HasConfig           bool     `json:"has_config,omitempty"`
	ConfigKnown         bool     `json:"config_known,omitempty"`
	HasPrior            bool     `json:"has_prior,omitempty"`
	Tainted             bool     `json:"tainted,omitempty"`
	PlannedEqualsPrior  bool     `json:"planned_equals_prior,omitempty"`
	RequiresReplace     []string `json:"requires_replace,omitempty"` // attribute paths, e.g. `tags["a"]`
	ForceReplace        bool     `json:"force_replace,omitempty"`    // named by -replace
	Triggered           bool     `json:"triggered,omitempty"`        // replace_triggered_by fired
	DependencyPending   bool     `json:"dependency_pending,omitempty"`
	CreateBeforeDestroy bool     `json:"create_before_destroy,omitempty"`
	PreventDestroy      bool     `json:"prevent_destroy,omitempty"`
	// Ignored lists the configuration paths that took their prior value
	// before the provider planned (ignore_changes, team ignore_paths and
	// equivalent); IgnoreAll is ignore_changes = all.
	Ignored   []string `json:"ignored,omitempty"`
	IgnoreAll bool     `json:"ignore_all,omitempty"`
	// Orphan holds the orphan facts when the instance has no configuration.
	Orphan *OrphanFacts `json:"orphan,omitempty"`
	// Removed is set when a removed block covers the address; RemovedDestroy
	// is its lifecycle.destroy.
	Removed        bool `json:"removed,omitempty"`
	RemovedDestroy bool `json:"removed_destroy,omitempty"`
}

// factsByChange is Plan.Facts as stored in saved plans.
type factsByChange = map[string]*DecisionFacts

// OrphanFacts are the facts that choose an orphan's reason.
type OrphanFacts struct {
	ResourceInConfig bool   `json:"resource_in_config"`
	Moved            bool   `json:"moved"`
	ModuleDeclared   bool   `json:"module_declared"`
	Repetition       string `json:"repetition"`
	InExpansion      bool   `json:"in_expansion"`
}

// appendFacts writes the facts object of the JSON plan's tenet key: only
// set facts, so that most changes cost a few bytes.
func appendFacts(b []byte, f *DecisionFacts) []byte {
	b = append(b, '{')
	str := func(k, v string) {
		if v != "" {
			b = appendKey(b, k)
			b = appendString(b, v)
		}
	}
	flag := func(k string, v bool) {
		if v {
			b = appendKey(b, k)
			b = append(b, "true"...)
		}
	}
	list := func(k string, v []string) {
		if len(v) > 0 {
			b = appendKey(b, k)
			b = appendStrings(b, v)
		}
	}
	str("mode", f.Mode)
	flag("has_config", f.HasConfig)
	flag("config_known", f.ConfigKnown)
	flag("has_prior", f.HasPrior)
	flag("tainted", f.Tainted)
	flag("planned_equals_prior", f.PlannedEqualsPrior)
	list("requires_replace", f.RequiresReplace)
	flag("force_replace", f.ForceReplace)
	flag("triggered", f.Triggered)
	flag("dependency_pending", f.DependencyPending)
	flag("create_before_destroy", f.CreateBeforeDestroy)
	flag("prevent_destroy", f.PreventDestroy)
	list("ignored", f.Ignored)
	flag("ignore_all", f.IgnoreAll)
	if o := f.Orphan; o != nil {
		b = appendKey(b, "orphan")
		b = append(b, '{')
		b = appendKey(b, "resource_in_config")
		b = appendBool(b, o.ResourceInConfig)
		b = appendKey(b, "moved")
		b = appendBool(b, o.Moved)
		b = appendKey(b, "module_declared")
		b = appendBool(b, o.ModuleDeclared)
		b = appendKey(b, "repetition")
		b = appendString(b, o.Repetition)
		b = appendKey(b, "in_expansion")
		b = appendBool(b, o.InExpansion)
		b = append(b, '}')
	}
	flag("removed", f.Removed)
	flag("removed_destroy", f.RemovedDestroy)
	return append(b, '}')
}
