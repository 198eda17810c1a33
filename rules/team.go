package rules

import "github.com/open-policy-agent/opa/v1/ast"

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
	// decide, prepare: no team rule extends the stage's package, so its
	// evaluation never reaches team code.
	decide, prepare bool
	// config, prior, planned: no team file mentions the name, neither as a
	// reference (inst.config) nor as a string (object.get(inst, "config", {})).
	config, prior, planned bool
}

func omissions(team []*teamRule, modules []*ast.Module) valueOmissions {
	o := valueOmissions{decide: true, prepare: true, config: true, prior: true, planned: true}
	for _, t := range team {
		switch t.pkg {
		case "data.tenet.decide":
			o.decide = false
		case "data.tenet.prepare":
			o.prepare = false
		}
	}
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			if s, ok := t.Value.(ast.String); ok {
				switch s {
				case "config":
					o.config = false
				case "prior":
					o.prior = false
				case "planned":
					o.planned = false
				}
			}
			return false
		})
	}
	return o
}
