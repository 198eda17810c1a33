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
	InCheck             bool     `json:"in_check,omitempty"`
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

// OrphanFacts are the facts that choose an orphan's reason.
type OrphanFacts struct {
	ResourceInConfig bool   `json:"resource_in_config"`
	Moved            bool   `json:"moved"`
	ModuleDeclared   bool   `json:"module_declared"`
	Repetition       string `json:"repetition"`
	InExpansion      bool   `json:"in_expansion"`
}
