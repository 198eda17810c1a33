package rules

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"
)

// Team rules see sensitive values (they are in input.instances[i].config
// and friends, flagged in the "sensitive" trees, and in
// input.run.variables), so a message built with sprintf can quote one.
// Messages end up in the plan's output, explanations and saved plans, so
// every sensitive value of the instance and of the root variables is cut
// out of the messages of its decide elements as they are read
// (decide_team.go), before the table quotes them in findings.

// redactedText stands where a sensitive value was quoted.
const redactedText = "(sensitive value)"

// secrets are the texts a team message must not quote, longest first so
// that a secret containing another is cut whole; nil when there are none.
type secrets struct {
	texts    []string
	replacer *strings.Replacer
}

func (e *Engine) newSecrets(texts []string) *secrets {
	if len(texts) == 0 {
		return nil
	}
	slices.SortFunc(texts, func(a, b string) int { return len(b) - len(a) })
	texts = slices.Compact(texts)
	pairs := make([]string, 0, 2*len(texts))
	for _, s := range texts {
		pairs = append(pairs, s, redactedText)
	}
	return &secrets{texts: texts, replacer: strings.NewReplacer(pairs...)}
}

// runSecretTexts are the sensitive parts of the root variables.
func (e *Engine) runSecretTexts(run Run) []string {
	var out []string
	for _, v := range run.Variables {
		out = e.appendSensitiveTexts(out, v)
	}
	return out
}

// instanceSecrets are the sensitive parts of an instance's values plus
// runTexts.
func (e *Engine) instanceSecrets(runTexts []string, in *Instance) *secrets {
	texts := slices.Clone(runTexts)
	for _, v := range []cty.Value{in.Config, in.Prior, in.Planned} {
		texts = e.appendSensitiveTexts(texts, v)
	}
	return e.newSecrets(texts)
}

// redactElement returns a team element {"value": [i, message], "rule": h}
// whose message quotes none of the secrets.
func (s *secrets) redactElement(el *ast.Term) *ast.Term {
	if s == nil {
		return el
	}
	obj := el.Value.(ast.Object)
	value := valueAt(obj, keyValue).(*ast.Array)
	msg := string(value.Elem(1).Value.(ast.String))
	clean := s.replacer.Replace(msg)
	if clean == msg {
		return el
	}
	return ast.ObjectTerm(
		ast.Item(keyValue, ast.ArrayTerm(value.Elem(0), ast.StringTerm(clean))),
		ast.Item(keyRule, obj.Get(keyRule)),
	)
}

// appendSensitiveTexts adds the text of every known leaf of v that lies
// under a sensitive mark, as a rule would print it (strings as they are,
// numbers and booleans as JSON writes them).
func (e *Engine) appendSensitiveTexts(out []string, v cty.Value) []string {
	if v == cty.NilVal || !containsMarks(v) {
		return out
	}
	_, pvm := v.UnmarkDeepWithPaths()
	for _, p := range pvm {
		sensitive := false
		for m := range p.Marks {
			sensitive = sensitive || e.isSensitive == nil || e.isSensitive(m)
		}
		if !sensitive {
			continue
		}
		sub, err := p.Path.Apply(v)
		if err != nil {
			continue
		}
		sub, _ = sub.UnmarkDeep()
		_ = cty.Walk(sub, func(_ cty.Path, leaf cty.Value) (bool, error) {
			if leaf.IsNull() || !leaf.IsKnown() {
				return false, nil
			}
			var text string
			switch leaf.Type() {
			case cty.String:
				text = leaf.AsString()
			case cty.Number:
				text = leaf.AsBigFloat().Text('f', -1)
			case cty.Bool:
				text = "false"
				if leaf.True() {
					text = "true"
				}
			}
			if text != "" {
				out = append(out, text)
			}
			return true, nil
		})
	}
	return out
}

// containsMarks reports whether v or any value inside it is marked. It is
// cty's ContainsMarked without building a path for every element: the
// check runs for every instance a team rule has a message for, and most
// values carry no marks at all.
func containsMarks(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if containsMarks(v.GetAttr(name)) {
				return true
			}
		}
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType(), ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); containsMarks(e) {
				return true
			}
		}
	}
	return false
}
