package human

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/zclconf/go-cty/cty"
)

// valueChange is one value's before/after pair as the JSON plan document
// describes it, with the unknown and sensitivity trees of the same shape and
// the replace_paths that reach into it.
type valueChange struct {
	before, after   any
	unknown         any // after_unknown subtree: true where unknown
	beforeSensitive any // true where sensitive
	afterSensitive  any
	replace         pathMatcher
	relevant        *pathMatcher // nil: every attribute is relevant
	// reveal draws sensitive values as their diff (-show-sensitive);
	// carried down with the value so every level sees it without a global.
	reveal bool
}

func (c valueChange) afterUnknown() bool   { return c.unknown == true }
func (c valueChange) sensitive() bool      { return c.beforeSensitive == true || c.afterSensitive == true }
func (c valueChange) forcesReplace() bool  { return c.replace.exact }
func (c valueChange) beforeNull() bool     { return c.before == nil }
func (c valueChange) afterNull() bool      { return c.after == nil && !c.afterUnknown() }
func (c valueChange) unchangedValue() bool { return !c.afterUnknown() && jsonEqual(c.before, c.after) }
func (c valueChange) bothNull() bool       { return c.before == nil && c.afterNull() }

// attr steps into an object or map member.
func (c valueChange) attr(name string) valueChange {
	step := pathStep{key: name}
	child := valueChange{
		before:          member(c.before, name),
		after:           member(c.after, name),
		unknown:         member(c.unknown, name),
		beforeSensitive: member(c.beforeSensitive, name),
		afterSensitive:  member(c.afterSensitive, name),
		replace:         c.replace.child(step),
		reveal:          c.reveal,
	}
	return child.withRelevance(c.relevant, step)
}

// elem steps into a sequence; bi and ai are the positions in before and after
// (-1 when the element does not exist on that side).
func (c valueChange) elem(bi, ai int) valueChange {
	child := valueChange{reveal: c.reveal}
	if bi >= 0 {
		child.before = element(c.before, bi)
		child.beforeSensitive = element(c.beforeSensitive, bi)
	}
	if ai >= 0 {
		child.after = element(c.after, ai)
		child.unknown = element(c.unknown, ai)
		child.afterSensitive = element(c.afterSensitive, ai)
		child.replace = c.replace.child(pathStep{index: ai, isIndex: true})
	}
	idx := ai
	if idx < 0 {
		idx = bi
	}
	return child.withRelevance(c.relevant, pathStep{index: idx, isIndex: true})
}

// withRelevance hides changes outside the relevant attributes by treating
// the value as unchanged, which is how drift is filtered.
func (c valueChange) withRelevance(parent *pathMatcher, step pathStep) valueChange {
	if parent == nil {
		return c
	}
	m := parent.child(step)
	if m.exact {
		c.relevant = nil
		return c
	}
	if len(m.paths) == 0 {
		c.after, c.unknown, c.afterSensitive = c.before, nil, c.beforeSensitive
		c.relevant = nil
		return c
	}
	c.relevant = &m
	return c
}

// member returns v[name] when v is a JSON object, and true when v is true
// (a wholly sensitive or unknown parent).
func member(v any, name string) any {
	switch v := v.(type) {
	case map[string]any:
		return v[name]
	case bool:
		if v {
			return true
		}
	}
	return nil
}

func element(v any, i int) any {
	switch v := v.(type) {
	case []any:
		if i < len(v) {
			return v[i]
		}
	case bool:
		if v {
			return true
		}
	}
	return nil
}

func jsonEqual(a, b any) bool {
	if an, ok := a.(json.Number); ok {
		if bn, ok := b.(json.Number); ok {
			if an == bn {
				return true
			}
			af, err1 := strconv.ParseFloat(string(an), 64)
			bf, err2 := strconv.ParseFloat(string(bn), 64)
			return err1 == nil && err2 == nil && af == bf
		}
		return false
	}
	return reflect.DeepEqual(a, b)
}

// pathStep is one step of an attribute path: an attribute name or map key,
// or a sequence index.
type pathStep struct {
	key     string
	index   int
	isIndex bool
}

// pathMatcher follows a set of paths (replace_paths, relevant_attributes)
// down a value: exact is true when one of them ends here.
type pathMatcher struct {
	paths [][]any
	exact bool
}

func newPathMatcher(paths [][]any) pathMatcher {
	m := pathMatcher{paths: paths}
	for _, p := range paths {
		if len(p) == 0 {
			m.exact = true
		}
	}
	return m
}

func (m pathMatcher) child(step pathStep) pathMatcher {
	var out pathMatcher
	for _, p := range m.paths {
		if len(p) == 0 || !stepMatches(p[0], step) {
			continue
		}
		if len(p) == 1 {
			out.exact = true
		}
		out.paths = append(out.paths, p[1:])
	}
	return out
}

func stepMatches(s any, step pathStep) bool {
	switch s := s.(type) {
	case string:
		return !step.isIndex && s == step.key
	case json.Number:
		i, err := strconv.Atoi(string(s))
		return err == nil && step.isIndex && i == step.index
	case float64:
		return step.isIndex && int(s) == step.index
	}
	return false
}

var ctyDynamic = cty.DynamicPseudoType
