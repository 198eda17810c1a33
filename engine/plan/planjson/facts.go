package planjson

import "github.com/tenetplan/tenet/engine/plan"

// appendFacts writes the facts object of the JSON plan's tenet key: only
// set facts, so that most changes cost a few bytes.
func appendFacts(b []byte, f *plan.DecisionFacts) []byte {
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
