package policy

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Sensitive values in reports. Policies read the plan as it is, sensitive
// values included (a policy may well judge a password's length), so a
// message built with sprintf over such a value would print it into every
// report and into the saved plan. Rego cannot track where a string came
// from, so after the check every message, detail and error is scanned for
// the values the plan marks sensitive, and each occurrence is replaced.

// redacted replaces a sensitive value in reports; it is what plans show.
const redacted = "(sensitive value)"

// sensitiveKeepers are the input members that must be kept whenever the
// value they mark is, so that redaction can find what is sensitive.
var sensitiveKeepers = map[string]string{"before": "before_sensitive", "after": "after_sensitive"}

// keepSensitiveMarks widens what the policies read so that the marks of
// every value they read are in the input too: per element, the
// before_sensitive / after_sensitive of a change whose before / after is
// read; and the configuration (which says which variables are sensitive)
// when variables are read.
func (u *inputUse) keepSensitiveMarks() {
	if u.all {
		return
	}
	if u.keys["variables"] {
		u.keys["configuration"] = true
	}
	for _, root := range u.elems {
		if root == nil || root.whole {
			continue
		}
		change := root.children["change"]
		if change == nil || change.whole {
			continue
		}
		for value, mark := range sensitiveKeepers {
			if change.children[value] != nil {
				change.need([]string{mark})
			}
		}
	}
}

// sensitiveValues lists the text of every value the plan JSON marks
// sensitive: the leaves (strings and numbers) of values under a true
// mark in resource changes and drift (before_sensitive, after_sensitive),
// output changes, planned values and the prior state (sensitive_values),
// outputs marked sensitive, and variables the configuration declares
// sensitive. Booleans and null are left alone: redacting every "true"
// would blank out most messages to hide one bit.
func sensitiveValues(input ast.Value) []string {
	obj, ok := input.(ast.Object)
	if !ok {
		return nil
	}
	c := &sensitiveCollector{seen: map[string]bool{}}
	for _, root := range []string{"resource_changes", "resource_drift"} {
		eachElem(get(obj, root), func(rc ast.Value) {
			change := get(rc, "change")
			c.marked(get(change, "before"), get(change, "before_sensitive"))
			c.marked(get(change, "after"), get(change, "after_sensitive"))
		})
	}
	if outs, ok := get(obj, "output_changes").(ast.Object); ok {
		outs.Foreach(func(_, oc *ast.Term) {
			c.marked(get(oc.Value, "before"), get(oc.Value, "before_sensitive"))
			c.marked(get(oc.Value, "after"), get(oc.Value, "after_sensitive"))
		})
	}
	c.module(get(obj, "planned_values"))
	c.module(get(get(obj, "prior_state"), "values"))
	if vars, ok := get(obj, "variables").(ast.Object); ok {
		decls := get(get(get(obj, "configuration"), "root_module"), "variables")
		vars.Foreach(func(k, v *ast.Term) {
			if name, ok := k.Value.(ast.String); ok && isTrue(get(get(decls, string(name)), "sensitive")) {
				c.leaves(get(v.Value, "value"))
			}
		})
	}
	return c.sorted()
}

type sensitiveCollector struct {
	seen map[string]bool
	list []string
}

// module collects from a values representation (planned_values, or
// prior_state.values): its outputs and its modules' resources.
func (c *sensitiveCollector) module(values ast.Value) {
	if outs, ok := get(values, "outputs").(ast.Object); ok {
		outs.Foreach(func(_, o *ast.Term) {
			if isTrue(get(o.Value, "sensitive")) {
				c.leaves(get(o.Value, "value"))
			}
		})
	}
	var walk func(m ast.Value)
	walk = func(m ast.Value) {
		eachElem(get(m, "resources"), func(r ast.Value) {
			c.marked(get(r, "values"), get(r, "sensitive_values"))
		})
		eachElem(get(m, "child_modules"), walk)
	}
	walk(get(values, "root_module"))
}

// marked collects the parts of v that mark (true, or an object or array
// of marks of the same shape as v) says are sensitive.
func (c *sensitiveCollector) marked(v, mark ast.Value) {
	switch m := mark.(type) {
	case ast.Boolean:
		if m {
			c.leaves(v)
		}
	case ast.Object:
		m.Foreach(func(k, sub *ast.Term) {
			if vo, ok := v.(ast.Object); ok {
				if t := vo.Get(k); t != nil {
					c.marked(t.Value, sub.Value)
				}
			}
		})
	case *ast.Array:
		va, ok := v.(*ast.Array)
		if !ok {
			return
		}
		for i := 0; i < m.Len() && i < va.Len(); i++ {
			c.marked(va.Elem(i).Value, m.Elem(i).Value)
		}
	}
}

// leaves collects every string and number in v.
func (c *sensitiveCollector) leaves(v ast.Value) {
	switch x := v.(type) {
	case ast.String:
		c.add(string(x))
	case ast.Number:
		c.add(string(x))
	case ast.Object:
		x.Foreach(func(_, t *ast.Term) { c.leaves(t.Value) })
	case *ast.Array:
		x.Foreach(func(t *ast.Term) { c.leaves(t.Value) })
	case ast.Set:
		x.Foreach(func(t *ast.Term) { c.leaves(t.Value) })
	}
}

func (c *sensitiveCollector) add(s string) {
	if s == "" || c.seen[s] {
		return
	}
	c.seen[s] = true
	c.list = append(c.list, s)
	// sprintf("%v") of an object or array prints its strings JSON-quoted:
	// a value with quotes, backslashes or newlines then reads differently.
	if js, err := json.Marshal(s); err == nil {
		if esc := string(js[1 : len(js)-1]); esc != s && !c.seen[esc] {
			c.seen[esc] = true
			c.list = append(c.list, esc)
		}
	}
}

// sorted is the values longest first, so that a value containing another
// is replaced whole.
func (c *sensitiveCollector) sorted() []string {
	sort.Slice(c.list, func(i, j int) bool {
		if len(c.list[i]) != len(c.list[j]) {
			return len(c.list[i]) > len(c.list[j])
		}
		return c.list[i] < c.list[j]
	})
	return c.list
}

func get(v ast.Value, key string) ast.Value {
	obj, ok := v.(ast.Object)
	if !ok {
		return nil
	}
	t := obj.Get(ast.StringTerm(key))
	if t == nil {
		return nil
	}
	return t.Value
}

func eachElem(v ast.Value, f func(ast.Value)) {
	if arr, ok := v.(*ast.Array); ok {
		arr.Foreach(func(t *ast.Term) { f(t.Value) })
	}
}

func isTrue(v ast.Value) bool {
	b, ok := v.(ast.Boolean)
	return ok && bool(b)
}

// redactReport replaces the sensitive values of input in every message,
// detail and error of r. Nothing is done for a report without any.
func redactReport(r *Report, input ast.Value) {
	if !r.hasText() {
		return
	}
	values := sensitiveValues(input)
	if len(values) == 0 {
		return
	}
	pairs := make([]string, 0, 2*len(values))
	for _, v := range values {
		pairs = append(pairs, v, redacted)
	}
	rep := strings.NewReplacer(pairs...)
	for i := range r.Results {
		res := &r.Results[i]
		for j := range res.Messages {
			m := &res.Messages[j]
			m.Msg = rep.Replace(m.Msg)
			for k, v := range m.Details {
				m.Details[k] = redactAny(v, rep)
			}
		}
		if res.Error != nil {
			res.Error.Message = rep.Replace(res.Error.Message)
		}
	}
}

func (r *Report) hasText() bool {
	for _, res := range r.Results {
		if len(res.Messages) > 0 || res.Error != nil {
			return true
		}
	}
	return false
}

// redactAny redacts the strings inside a decoded detail value; a number
// equal to a sensitive one becomes the redaction text.
func redactAny(v any, rep *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return rep.Replace(x)
	case json.Number:
		if s := rep.Replace(x.String()); s != x.String() {
			return s
		}
	case map[string]any:
		for k, e := range x {
			x[k] = redactAny(e, rep)
		}
	case []any:
		for i, e := range x {
			x[i] = redactAny(e, rep)
		}
	}
	return v
}
