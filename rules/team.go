package rules

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/regokit"
)

// TeamRulesLoaded reports whether team rule files were loaded. The engine
// then gathers the facts only team rules read (values, root variables).
func (e *Engine) TeamRulesLoaded() bool { return e.includeValues }

// hasTeamRulesFor reports whether a team rule adds to the extension point
// pkg.name (e.g. "data.tenet.moves", "moves").
func hasTeamRulesFor(team []*teamRule, pkg, name string) bool {
	for _, t := range team {
		if t.pkg == pkg && t.name == name {
			return true
		}
	}
	return false
}

// WantsComputedMoves reports whether a team rule adds to the moves
// extension point, so that the engine gathers candidates only then.
func (e *Engine) WantsComputedMoves() bool { return e.hasTeamMoves }

// valueOmissions names the values input building may skip because no team
// rule can read them: converting values is most of what team rules cost.
// The zero value skips nothing.
type valueOmissions struct {
	// decideFields are the instance fields the team decide rules can read,
	// by name (nil: all of them); only those are shown to them when their
	// elements are evaluated on their own (decide_team.go).
	decideFields map[string]bool
	// prepareFields are the fields shown in the prepare stage: what team
	// rules name plus what the default prepare rules read (nil: all).
	prepareFields map[string]bool

	// decide, prepare: no team rule extends the stage's package, so its
	// evaluation never reaches team code.
	decide, prepare bool
	// config, prior, planned: no team file mentions the name, neither as a
	// reference (inst.config) nor as a string (object.get(inst, "config", {})).
	config, prior, planned bool
	// configAttrs, priorAttrs, plannedAttrs: the top-level attributes team
	// rules read, when every mention of the value is a reference
	// X.config.values.NAME with a constant NAME; nil when they may read any.
	configAttrs, priorAttrs, plannedAttrs attrSet
}

func omissions(team []*teamRule, modules []*ast.Module, defaultDecideRules map[string]bool) valueOmissions {
	o := valueOmissions{decide: true, prepare: true}
	for _, t := range team {
		switch t.pkg {
		case "data.tenet.decide":
			o.decide = false
		case "data.tenet.prepare":
			o.prepare = false
		}
	}
	o.decideFields, o.prepareFields = fieldsRead(modules, defaultDecideRules)
	reads := valueReads(modules)
	o.config, o.configAttrs = reads["config"].omission()
	o.prior, o.priorAttrs = reads["prior"].omission()
	o.planned, o.plannedAttrs = reads["planned"].omission()
	return o
}

// valueRead is what team files do with one value (config, prior, planned).
type valueRead struct {
	mentioned bool    // the name appears at all
	anyAttr   bool    // somewhere other than as X.NAME.values.ATTR
	attrs     attrSet // the ATTRs of X.NAME.values.ATTR
}

// omission says whether the value can be left out, and otherwise which
// top-level attributes to present (nil: all).
func (r *valueRead) omission() (omit bool, attrs attrSet) {
	switch {
	case !r.mentioned:
		return true, nil
	case r.anyAttr:
		return false, nil
	default:
		return false, r.attrs
	}
}

// valueReads finds how the modules read each value. A reference
// inst.config.values.image reads only the attribute image; any other
// mention of the name, in a reference or as a string, may read anything.
func valueReads(modules []*ast.Module) map[string]*valueRead {
	reads := map[string]*valueRead{"config": {}, "prior": {}, "planned": {}}
	inRef := map[*ast.Term]bool{}
	for _, m := range modules {
		gets := objectGetKeys(m)
		for _, ref := range regokit.ScanReads(m).Refs {
			for _, t := range ref {
				inRef[t] = true
			}
			for j := 1; j < len(ref); j++ {
				s, ok := ref[j].Value.(ast.String)
				r := reads[string(s)]
				if !ok || r == nil {
					continue
				}
				r.mentioned = true
				attr, ok := "", false
				if j+2 <= len(ref) && ast.String("values").Equal(ref[j+1].Value) {
					if j+2 < len(ref) {
						var s ast.String
						s, ok = ref[j+2].Value.(ast.String)
						attr = string(s)
					} else {
						attr, ok = gets[ref[0]]
					}
				}
				if ok {
					if r.attrs == nil {
						r.attrs = attrSet{}
					}
					r.attrs[attr] = true
					j += 2
					continue
				}
				r.anyAttr = true
			}
		}
		ast.WalkTerms(m, func(t *ast.Term) bool {
			if s, ok := t.Value.(ast.String); ok && !inRef[t] {
				if r := reads[string(s)]; r != nil {
					r.mentioned, r.anyAttr = true, true
				}
			}
			return false
		})
	}
	return reads
}

// objectGetKeys finds the calls object.get(REF, KEY, DEFAULT) whose key
// (or the first step of a key path) is a constant string, by the head term
// of REF: through such a call a rule reads only that member of REF, the
// usual way to read an attribute that may be absent.
func objectGetKeys(m *ast.Module) map[*ast.Term]string {
	keys := map[*ast.Term]string{}
	visit := func(call []*ast.Term) {
		if len(call) < 4 || !call[0].Equal(objectGetRef) {
			return
		}
		ref, ok := call[1].Value.(ast.Ref)
		if !ok {
			return
		}
		key := call[2].Value
		if path, ok := key.(*ast.Array); ok && path.Len() > 0 {
			key = path.Elem(0).Value
		}
		if s, ok := key.(ast.String); ok {
			keys[ref[0]] = string(s)
		}
	}
	ast.WalkExprs(m, func(x *ast.Expr) bool {
		if terms, ok := x.Terms.([]*ast.Term); ok {
			visit(terms)
		}
		return false
	})
	ast.WalkTerms(m, func(t *ast.Term) bool {
		if call, ok := t.Value.(ast.Call); ok {
			visit(call)
		}
		return false
	})
	return keys
}

var objectGetRef = ast.RefTerm(ast.VarTerm("object"), ast.StringTerm("get"))

// fieldsRead lists every name team files mention, in a reference or as a
// string: an instance field they never name they cannot read. decide is
// nil (all fields) when a team file of the decide package refers to a
// default rule of the package, which reads fields of its own; prepare adds
// the fields the default prepare rules read.
func fieldsRead(modules []*ast.Module, defaultDecideRules map[string]bool) (decide, prepare map[string]bool) {
	defaultRules := map[string]bool{}
	for name := range defaultDecideRules {
		defaultRules[name] = true
	}
	for _, point := range extensionPoints["data.tenet.decide"] {
		delete(defaultRules, point) // what team rules add to, not rules that read fields
	}
	mentioned := map[string]bool{}
	all := false
	for _, m := range modules {
		inDecide := m.Package.Path.String() == "data.tenet.decide"
		ast.WalkVars(m, func(v ast.Var) bool {
			// A bare name in the package may be a default rule (a
			// variable of the same name only costs the filtering).
			if inDecide && defaultRules[string(v)] {
				all = true
			}
			return false
		})
		for _, ref := range regokit.ScanReads(m).Refs {
			if ref.HasPrefix(decideRef) && len(ref) > 3 {
				if s, ok := ref[3].Value.(ast.String); ok && defaultRules[string(s)] {
					all = true
				}
			}
		}
		ast.WalkTerms(m, func(t *ast.Term) bool {
			if s, ok := t.Value.(ast.String); ok {
				mentioned[string(s)] = true
			}
			return false
		})
	}
	prepare = map[string]bool{"has_prior": true, "lifecycle": true}
	for name := range mentioned {
		prepare[name] = true
	}
	if all {
		return nil, prepare
	}
	return mentioned, prepare
}

// ruleNamesByPackage lists the top-level rule names of each package.
func ruleNamesByPackage(mods []*ast.Module) map[string]map[string]bool {
	names := map[string]map[string]bool{}
	for _, m := range mods {
		pkg := m.Package.Path.String()
		if names[pkg] == nil {
			names[pkg] = map[string]bool{}
		}
		for _, r := range m.Rules {
			names[pkg][ruleName(r)] = true
		}
	}
	return names
}

func ruleName(r *ast.Rule) string {
	ref := r.Head.Ref()
	if len(ref) == 0 {
		return ""
	}
	if v, ok := ref[0].Value.(ast.Var); ok {
		return string(v)
	}
	return ref[0].String()
}

// dropPackageAnnotations removes a module's package METADATA, with its
// comment block: the compiler parses the comments again for a module left
// without annotations once a default rule calls rego.metadata.rule().
func dropPackageAnnotations(m *ast.Module) {
	kept := m.Annotations[:0]
	droppedRows := map[int]bool{}
	for _, a := range m.Annotations {
		if a.Scope != "package" && a.Scope != "subpackages" {
			kept = append(kept, a)
		} else if a.Location != nil {
			droppedRows[a.Location.Row] = true
		}
	}
	m.Annotations = kept
	if len(droppedRows) == 0 {
		return
	}
	comments := m.Comments[:0]
	for _, c := range m.Comments {
		if droppedRows[c.Location.Row] {
			droppedRows[c.Location.Row+1] = true // the block goes on
			continue
		}
		comments = append(comments, c)
	}
	m.Comments = comments
}
