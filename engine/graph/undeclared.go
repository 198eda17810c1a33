package graph

import (
	"fmt"
	"slices"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
)

// UndeclaredReference reports a reference to a variable, local value,
// module call or resource that module m does not declare, in OpenTofu's
// words with its hints (a near name, or the data resource meant); nil
// when m declares it or the reference names something else.
func UndeclaredReference(m *config.Module, ref *addrs.Reference) *hcl.Diagnostic {
	switch s := ref.Subject.(type) {
	case addrs.InputVariable:
		if _, ok := m.Variables[s.Name]; ok {
			return nil
		}
		hint := fmt.Sprintf(" This variable can be declared with a variable %q {} block.", s.Name)
		if near := nearName(s.Name, m.Variables); near != "" {
			hint = fmt.Sprintf(" Did you mean %q?", near)
		}
		return Undeclared(ref, "input variable", fmt.Sprintf("An input variable with the name %q has not been declared.%s", s.Name, hint))
	case addrs.LocalValue:
		if _, ok := m.Locals[s.Name]; ok {
			return nil
		}
		return Undeclared(ref, "local value", fmt.Sprintf("A local value with the name %q has not been declared.%s", s.Name, didYouMean(s.Name, m.Locals)))
	case addrs.ModuleCall:
		if _, ok := m.ModuleCalls[s.Name]; ok {
			return nil
		}
		return Undeclared(ref, "module", fmt.Sprintf("No module call named %q is declared in %s.%s", s.Name, ModuleDisplay(m.Path), didYouMean(s.Name, m.ModuleCalls)))
	case addrs.Resource:
		return undeclaredResource(m, s, ref)
	case addrs.ResourceInstance:
		return undeclaredResource(m, s.Resource, ref)
	case addrs.PathAttr:
		return emptyAttr(s.Name, ref)
	case addrs.TerraformAttr:
		return emptyAttr(s.Name, ref)
	case addrs.CountAttr:
		return emptyAttr(s.Name, ref)
	case addrs.ForEachAttr:
		return emptyAttr(s.Name, ref)
	}
	return nil
}

// emptyAttr reports the empty name a malformed reference leaves (see
// addrs.ParseRef), which OpenTofu goes on to look up, as OpenTofu does;
// real names are checked when evaluated.
func emptyAttr(name string, ref *addrs.Reference) *hcl.Diagnostic {
	if name != "" {
		return nil
	}
	return eval.AttrProblem(ref)
}

func undeclaredResource(m *config.Module, r addrs.Resource, ref *addrs.Reference) *hcl.Diagnostic {
	mode, hint := "managed", ""
	if r.Mode == addrs.DataResourceMode {
		if _, ok := m.DataResources[r.String()]; ok {
			return nil
		}
		mode = "data"
	} else {
		if _, ok := m.ManagedResources[r.String()]; ok {
			return nil
		}
		// Leaving out "data." is a common slip: point at the data
		// resource of that name.
		data := r
		data.Mode = addrs.DataResourceMode
		if _, ok := m.DataResources[data.String()]; ok {
			hint = fmt.Sprintf("\n\nDid you mean the data resource %s?", data)
		}
	}
	return Undeclared(ref, "resource", fmt.Sprintf("A %s resource %q %q has not been declared in %s.%s", mode, r.Type, r.Name, ModuleDisplay(m.Path), hint))
}

// didYouMean is OpenTofu's ` Did you mean "NAME"?` for a declared name
// near the one given, or "".
func didYouMean[V any](given string, declared map[string]V) string {
	if near := nearName(given, declared); near != "" {
		return fmt.Sprintf(" Did you mean %q?", near)
	}
	return ""
}

// nearName is the first declared name, in sorted order, fewer than three
// edits from given (OpenTofu's measure), or "".
func nearName[V any](given string, declared map[string]V) string {
	names := make([]string, 0, len(declared))
	for name := range declared {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if levenshtein.Distance(given, name, nil) < 3 {
			return name
		}
	}
	return ""
}
