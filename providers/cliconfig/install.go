package cliconfig

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

var installationSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "dev_overrides"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "filesystem_mirror"},
		{Type: "network_mirror"},
		{Type: "direct"},
		{Type: "oci_mirror"},
		{Type: "dev_overrides"}, // the JSON form reaches here as a block
	},
}

// quotedBodyKeys makes the HCL 1 form `dev_overrides { "ns/type" = "dir" }`
// readable by HCL 2, whose block bodies do not accept quoted argument
// names: it inserts "=" so the block becomes an object-valued argument.
// Only that one construct is rewritten, and only on its own line, so the
// line numbers of every diagnostic stay right.
func quotedBodyKeys(src []byte, filename string) []byte {
	toks, diags := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return src
	}
	var inserts []int
	for i, t := range toks {
		if t.Type != hclsyntax.TokenIdent || string(t.Bytes) != "dev_overrides" {
			continue
		}
		if i > 0 && toks[i-1].Type != hclsyntax.TokenNewline && toks[i-1].Type != hclsyntax.TokenOBrace {
			continue
		}
		if i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenOBrace {
			inserts = append(inserts, t.Range.End.Byte)
		}
	}
	if len(inserts) == 0 {
		return src
	}
	var b bytes.Buffer
	prev := 0
	for _, at := range inserts {
		b.Write(src[prev:at])
		b.WriteString(" =")
		prev = at
	}
	b.Write(src[prev:])
	return b.Bytes()
}

func decodeProviderInstallation(b *hcl.Block, env Env) (*ProviderInstallation, hcl.Diagnostics) {
	pi := &ProviderInstallation{DeclRange: b.DefRange}
	content, diags := b.Body.Content(installationSchema)
	diags = unknownAsWarnings(diags, "a provider_installation block")
	if a := content.Attributes["dev_overrides"]; a != nil {
		pi.DevOverrides = decodeDevOverrides(a.Expr, env, &diags)
	}
	for _, blk := range content.Blocks {
		var m getproviders.Method
		switch blk.Type {
		case "dev_overrides":
			attrs, more := blk.Body.JustAttributes()
			diags = append(diags, more...)
			for _, a := range attrs {
				for p, d := range decodeDevOverrides(a.Expr, env, &diags) {
					if pi.DevOverrides == nil {
						pi.DevOverrides = map[addrs.Provider]string{}
					}
					pi.DevOverrides[p] = d
				}
			}
			continue
		case "oci_mirror":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "oci_mirror is not supported",
				Detail:   "tenet cannot install providers from OCI registries. Use a filesystem_mirror or network_mirror holding the same providers, or direct, instead.",
				Subject:  blk.TypeRange.Ptr(),
			})
			continue
		case "direct":
			m.Kind = getproviders.MethodDirect
		case "filesystem_mirror":
			m.Kind = getproviders.MethodFilesystemMirror
		case "network_mirror":
			m.Kind = getproviders.MethodNetworkMirror
		}
		m.DeclRange = blk.DefRange
		more := decodeMethod(blk, &m, env)
		diags = append(diags, more...)
		if !more.HasErrors() {
			pi.Methods = append(pi.Methods, m)
		}
	}
	return pi, diags
}

func decodeMethod(blk *hcl.Block, m *getproviders.Method, env Env) hcl.Diagnostics {
	schema := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "include"}, {Name: "exclude"}}}
	switch m.Kind {
	case getproviders.MethodFilesystemMirror:
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: "path", Required: true})
	case getproviders.MethodNetworkMirror:
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: "url", Required: true})
	}
	content, diags := blk.Body.Content(schema)
	diags = unknownAsWarnings(diags, "a "+blk.Type+" block")
	if diags.HasErrors() {
		return diags
	}
	if a := content.Attributes["path"]; a != nil {
		if s, ok := stringValue(a, &diags); ok {
			m.Location = os.Expand(s, env.getenv)
		}
	}
	if a := content.Attributes["url"]; a != nil {
		if s, ok := stringValue(a, &diags); ok {
			u, err := url.Parse(s)
			if err != nil || u.Scheme != "https" || u.Host == "" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid network mirror URL",
					Detail:   fmt.Sprintf("The network mirror URL %q must be an absolute https:// URL.", s),
					Subject:  a.Expr.Range().Ptr(),
				})
			} else {
				if u.Path == "" || u.Path[len(u.Path)-1] != '/' {
					u.Path += "/"
				}
				m.Location = u.String()
			}
		}
	}
	for _, f := range []struct {
		name string
		dst  *[]getproviders.ProviderPattern
	}{{"include", &m.Include}, {"exclude", &m.Exclude}} {
		a, dst := content.Attributes[f.name], f.dst
		if a == nil {
			continue
		}
		list, ok := stringListValue(a, &diags)
		if !ok {
			continue
		}
		for _, s := range list {
			pat, err := getproviders.ParseProviderPattern(s)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider pattern",
					Detail:   fmt.Sprintf("%s. Patterns look like \"registry.opentofu.org/hashicorp/*\" or \"example.com/*/*\".", err),
					Subject:  a.Expr.Range().Ptr(),
				})
				continue
			}
			*dst = append(*dst, pat)
		}
	}
	return diags
}

func decodeDevOverrides(expr hcl.Expression, env Env, diags *hcl.Diagnostics) map[addrs.Provider]string {
	v, more := expr.Value(nil)
	*diags = append(*diags, more...)
	if more.HasErrors() {
		return nil
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		*diags = append(*diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid dev_overrides",
			Detail:   "dev_overrides maps provider source addresses to directories, such as \"hashicorp/time\" = \"/home/me/go/bin\".",
			Subject:  expr.Range().Ptr(),
		})
		return nil
	}
	out := map[addrs.Provider]string{}
	for k, dv := range v.AsValueMap() {
		p, err := addrs.ParseProviderSource(k)
		if err != nil {
			*diags = append(*diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider source address in dev_overrides",
				Detail:   fmt.Sprintf("%s.", err),
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		if dv.IsNull() || !dv.Type().Equals(cty.String) {
			*diags = append(*diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid dev_overrides",
				Detail:   fmt.Sprintf("The override for %s must be a directory path string.", p.ForDisplay()),
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		out[p] = filepath.Clean(os.Expand(dv.AsString(), env.getenv))
	}
	return out
}
