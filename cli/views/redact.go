package views

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

// redactSensitive returns d with every sensitive value its expression
// reads replaced by "(sensitive value)" in the summary and detail. Error
// messages from functions and operators may quote their arguments (an
// unparsable CIDR, a malformed timestamp); the values came in marked
// sensitive, so the message must not show them. Only diagnostics that
// carry their evaluation context can quote a value.
func redactSensitive(d *hcl.Diagnostic) *hcl.Diagnostic {
	if d == nil || d.EvalContext == nil {
		return d
	}
	// hcl reports a bad function argument against that argument's
	// expression alone, so look at everything the context holds (the
	// engine's contexts hold only what the enclosing expression reads).
	secrets := map[string]bool{}
	for ctx := d.EvalContext; ctx != nil; ctx = ctx.Parent() {
		for _, v := range ctx.Variables {
			collectSensitive(v, false, secrets)
		}
	}
	if len(secrets) == 0 {
		return d
	}
	// Longest first, so a secret containing another is replaced whole.
	list := make([]string, 0, len(secrets))
	for s := range secrets {
		list = append(list, s)
	}
	sortByLengthDesc(list)
	out := *d
	out.Summary = redactText(out.Summary, list)
	out.Detail = redactText(out.Detail, list)
	return &out
}

// collectSensitive adds the text of every known primitive inside v that
// is sensitive (marked itself or inside a marked value).
func collectSensitive(v cty.Value, inSensitive bool, out map[string]bool) {
	if v.IsMarked() {
		var marks cty.ValueMarks
		v, marks = v.Unmark()
		if _, ok := marks[funcs.SensitiveMark]; ok {
			inSensitive = true
		}
	}
	if !v.IsKnown() || v.IsNull() {
		return
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		if inSensitive {
			out[v.AsString()] = true
		}
	case ty == cty.Number:
		if inSensitive {
			out[v.AsBigFloat().Text('f', -1)] = true
		}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		if !inSensitive && !v.ContainsMarked() {
			return
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if ty.IsMapType() {
				// Keys of a sensitive map are sensitive too.
				collectSensitive(k, inSensitive, out)
			}
			collectSensitive(e, inSensitive, out)
		}
	}
}

// redactText replaces each secret: its quoted form always, its bare form
// when it is long enough not to be mistaken for ordinary words.
func redactText(s string, secrets []string) string {
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		s = strings.ReplaceAll(s, strconv.Quote(secret), "(sensitive value)")
		if len(secret) >= 4 {
			s = strings.ReplaceAll(s, secret, "(sensitive value)")
		}
	}
	return s
}

func sortByLengthDesc(list []string) {
	sort.Slice(list, func(i, j int) bool {
		if len(list[i]) != len(list[j]) {
			return len(list[i]) > len(list[j])
		}
		return list[i] < list[j]
	})
}
