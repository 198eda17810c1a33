package engine

import (
	"github.com/zclconf/go-cty/cty"
)

// echoedSensitivePaths adds the sensitive paths a resource's computed
// attribute inherits when the resource type copies an argument into it.
// terraform_data echoes input into output; OpenTofu leaves that copy
// unmarked, so a sensitive input would be shown (and flow on unmarked)
// through output. tenet keeps it sensitive: at the same paths once output
// is known, and as a whole while it is unknown (planned), so a reader
// that needs sensitive = true is told so at plan time, not at apply.
func echoedSensitivePaths(resourceType string, v cty.Value, paths []cty.Path) []cty.Path {
	if resourceType != "terraform_data" || len(paths) == 0 || v.IsNull() || !v.IsKnown() ||
		!v.Type().IsObjectType() || !v.Type().HasAttribute("output") {
		return paths
	}
	outKnown := v.GetAttr("output").IsWhollyKnown()
	var echoed []cty.Path
	for _, p := range paths {
		if len(p) == 0 {
			continue
		}
		step, ok := p[0].(cty.GetAttrStep)
		if !ok || step.Name != "input" {
			continue
		}
		if !outKnown {
			echoed = append(echoed, cty.GetAttrPath("output"))
			break
		}
		q := make(cty.Path, 0, len(p))
		q = append(q, cty.GetAttrStep{Name: "output"})
		echoed = append(echoed, append(q, p[1:]...))
	}
	return mergePaths(paths, echoed)
}
