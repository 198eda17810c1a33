package modinstall

import (
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/tenetplan/tenet/config"
)

// call is what installation needs of one module block.
type call struct {
	name         string
	source       string
	sourceRange  hcl.Range
	version      string
	versionRange *hcl.Range
	declRange    hcl.Range
	mc           *config.ModuleCall
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "module", LabelNames: []string{"name"}}}}

// moduleCalls reads the module of node n and its module calls, whose
// sources and versions are computed early (config.ReadModule): with the
// root module's variables from opts.Static, a child's from the arguments
// of its call. Calls whose source could not be computed are left out,
// their errors being among the diagnostics.
func moduleCalls(n node, static config.StaticInputs) (*config.Module, []call, hcl.Diagnostics) {
	mod, diags := config.ReadModule(n.disk, n.dir, n.path, n.parentMod, n.call, static)
	if mod == nil {
		return nil, nil, diags
	}
	var out []call
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		mc := mod.ModuleCalls[name]
		if mc.SourceAddr == "" {
			continue
		}
		c := call{name: name, source: mc.SourceAddr, sourceRange: mc.SourceAddrRange, version: mc.Version, declRange: mc.DeclRange, mc: mc}
		if mc.VersionAttr != nil {
			r := mc.VersionAttr.Expr.Range()
			c.versionRange = &r
		}
		out = append(out, c)
	}
	return mod, out, diags
}

// HasModuleCalls says the module in dir calls any module. init shows its
// "Initializing modules..." header only then, as OpenTofu does.
func HasModuleCalls(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	p := hclparse.NewParser()
	for _, n := range config.ConfigFiles(names) {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		f, _ := config.ParseSource(p, src, n)
		if f == nil {
			continue
		}
		content, _, _ := f.Body.PartialContent(fileSchema)
		if len(content.Blocks) > 0 {
			return true
		}
	}
	return false
}
