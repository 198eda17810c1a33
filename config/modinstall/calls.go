package modinstall

import (
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/tenetplan/tenet/config"
	"github.com/zclconf/go-cty/cty"
)

// call is what installation needs of one module block.
type call struct {
	name         string
	source       string
	sourceRange  hcl.Range
	version      string
	versionRange *hcl.Range
	declRange    hcl.Range
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "module", LabelNames: []string{"name"}}}}

var callSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}}}

// moduleCalls reads the module blocks of the module in diskDir. Files are
// named by shown+"/"+file in diagnostics, so the user sees the path of
// the installed module rather than a staging directory. Only source and
// version are read: config reports every other problem when it loads.
// An override file's source or version replaces the primary one.
func moduleCalls(diskDir, shown string) ([]call, hcl.Diagnostics) {
	entries, err := os.ReadDir(diskDir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unreadable module directory", Detail: "The module directory could not be read: " + err.Error()}}
	}
	var names, primary, overrides []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	for _, n := range config.ConfigFiles(names) {
		if config.IsOverrideFile(n) {
			overrides = append(overrides, n)
		} else {
			primary = append(primary, n)
		}
	}
	sort.Strings(primary)
	sort.Strings(overrides)
	p := hclparse.NewParser()
	var diags hcl.Diagnostics
	byName := map[string]*call{}
	var order []string
	for i, n := range append(primary, overrides...) {
		override := i >= len(primary)
		src, err := os.ReadFile(filepath.Join(diskDir, n))
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unreadable configuration file", Detail: err.Error()})
			continue
		}
		name := path.Join(shown, n)
		f, d := config.ParseSource(p, src, name)
		diags = append(diags, d...)
		if f == nil {
			continue
		}
		content, _, d := f.Body.PartialContent(fileSchema)
		diags = append(diags, d...)
		for _, b := range content.Blocks {
			c := byName[b.Labels[0]]
			if c == nil {
				if override {
					continue // config reports overrides of missing blocks
				}
				c = &call{name: b.Labels[0], declRange: b.DefRange}
				byName[c.name] = c
				order = append(order, c.name)
			}
			bc, _, d := b.Body.PartialContent(callSchema)
			diags = append(diags, d...)
			if a, ok := bc.Attributes["source"]; ok {
				c.source, c.sourceRange = literalString(a, &diags), a.Expr.Range()
			}
			if a, ok := bc.Attributes["version"]; ok {
				r := a.Expr.Range()
				c.version, c.versionRange = literalString(a, &diags), &r
			}
		}
	}
	var out []call
	for _, n := range order {
		c := byName[n]
		if c.source == "" {
			continue // config reports the missing source
		}
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, diags
}

func literalString(a *hcl.Attribute, diags *hcl.Diagnostics) string {
	v, d := a.Expr.Value(nil)
	if d.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		*diags = append(*diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid module " + a.Name,
			Detail:   "The module " + a.Name + " must be a literal string: it is read before anything is evaluated.",
			Subject:  a.Expr.Range().Ptr(),
		})
		return ""
	}
	return v.AsString()
}

// HasModuleCalls says the module in dir calls any module. init shows its
// "Initializing modules..." header only then, as OpenTofu does.
func HasModuleCalls(dir string) bool {
	calls, _ := moduleCalls(dir, ".")
	return len(calls) > 0
}
