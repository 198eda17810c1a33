package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/atomicfile"
	"github.com/tenetplan/tenet/providers/getproviders"
)

// FileName is the lock file's name in a configuration's root directory.
const FileName = ".terraform.lock.hcl"

// header is the comment OpenTofu starts the file with; writing the same
// words keeps files from churning when a team uses both tools.
const header = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.
`

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "provider", LabelNames: []string{"source"}}},
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "constraints"},
		{Name: "hashes"},
	},
}

// Load reads the lock file at path. A missing file is empty locks, as
// before a configuration's first init.
func Load(path string) (*Locks, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return New(), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read the dependency lock file",
			Detail:   fmt.Sprintf("Reading %s failed: %s.", path, err),
		}}
	}
	return Parse(src, path)
}

// Parse reads lock file source; filename is used in diagnostics only.
func Parse(src []byte, filename string) (*Locks, hcl.Diagnostics) {
	locks := New()
	f, diags := hclparse.NewParser().ParseHCL(src, filename)
	if diags.HasErrors() {
		return locks, diags
	}
	content, more := f.Body.Content(fileSchema)
	diags = append(diags, more...)
	seen := map[addrs.Provider]hcl.Range{}
	for _, b := range content.Blocks {
		e, more := decodeProvider(b)
		diags = append(diags, more...)
		if e == nil {
			continue
		}
		if prev, dup := seen[e.Provider]; dup {
			diags = append(diags, errorAt(b.LabelRanges[0], "Duplicate provider lock", fmt.Sprintf("This file already has an entry for %s at %s. Remove one of them, or delete the entry and run init again.", e.Provider, prev)))
			continue
		}
		seen[e.Provider] = b.DefRange
		locks.providers[e.Provider] = e
	}
	return locks, diags
}

func decodeProvider(b *hcl.Block) (*ProviderLock, hcl.Diagnostics) {
	p, err := addrs.ParseProviderSource(b.Labels[0])
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider source address",
			Detail:   fmt.Sprintf("The lock file has an entry for %q, which is not a provider source address: %s.", b.Labels[0], err),
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	if p.String() != b.Labels[0] {
		// OpenTofu writes only the full normalised form; a short or
		// differently-spelled one would be read as another provider.
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Non-normalized provider source address",
			Detail:   fmt.Sprintf("The lock file entry for %q must use the full address %q.", b.Labels[0], p.String()),
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	if p.IsBuiltIn() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Built-in provider in the lock file",
			Detail:   fmt.Sprintf("%s is built in and is never locked: remove its entry.", p),
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	content, diags := b.Body.Content(providerSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	e := &ProviderLock{Provider: p, DeclRange: b.DefRange}

	raw, rng, ok := stringAttr(content.Attributes["version"], &diags)
	if ok {
		v, err := getproviders.ParseVersion(raw)
		if err != nil || v.String() != raw {
			diags = append(diags, errorAt(rng, "Invalid provider version", fmt.Sprintf("The version of %s must be a single exact version such as \"1.2.0\", not %q.", p, raw)))
		} else {
			e.Version = v
		}
	}
	if a := content.Attributes["constraints"]; a != nil {
		if raw, rng, ok := stringAttr(a, &diags); ok {
			c, err := getproviders.ParseConstraints(raw)
			if err != nil {
				diags = append(diags, errorAt(rng, "Invalid version constraints", fmt.Sprintf("The constraints recorded for %s are not valid: %s.", p, err)))
			} else {
				e.Constraints = c
			}
		}
	}
	if a := content.Attributes["hashes"]; a != nil {
		e.Hashes = decodeHashes(a, p, &diags)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return e, diags
}

func stringAttr(a *hcl.Attribute, diags *hcl.Diagnostics) (string, hcl.Range, bool) {
	v, more := a.Expr.Value(nil)
	*diags = append(*diags, more...)
	if more.HasErrors() {
		return "", a.Expr.Range(), false
	}
	if v.IsNull() || !v.Type().Equals(cty.String) {
		*diags = append(*diags, errorAt(a.Expr.Range(), "Invalid "+a.Name, fmt.Sprintf("The %s argument must be a string.", a.Name)))
		return "", a.Expr.Range(), false
	}
	return v.AsString(), a.Expr.Range(), true
}

func decodeHashes(a *hcl.Attribute, p addrs.Provider, diags *hcl.Diagnostics) []getproviders.Hash {
	exprs, more := hcl.ExprList(a.Expr)
	*diags = append(*diags, more...)
	if more.HasErrors() {
		return nil
	}
	var out []getproviders.Hash
	for _, x := range exprs {
		v, more := x.Value(nil)
		*diags = append(*diags, more...)
		if more.HasErrors() {
			continue
		}
		if v.IsNull() || !v.Type().Equals(cty.String) {
			*diags = append(*diags, errorAt(x.Range(), "Invalid provider hash", "Each element of hashes must be a string such as \"h1:…\" or \"zh:…\"."))
			continue
		}
		h, err := getproviders.ParseHash(v.AsString())
		if err != nil {
			*diags = append(*diags, errorAt(x.Range(), "Invalid provider hash", fmt.Sprintf("A hash of %s is not valid: %s. Delete the entry and run init again to record fresh hashes.", p, err)))
			continue
		}
		out = append(out, h)
	}
	return normalizeHashes(out)
}

// Bytes renders the locks in OpenTofu's layout: the header comment, then
// one block per provider in address order, hashes sorted, one per line.
func (l *Locks) Bytes() []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, e := range l.AllProviders() {
		body.AppendNewline()
		b := body.AppendNewBlock("provider", []string{e.Provider.String()}).Body()
		b.SetAttributeValue("version", cty.StringVal(e.Version.String()))
		if !e.Constraints.IsEmpty() {
			b.SetAttributeValue("constraints", cty.StringVal(e.Constraints.String()))
		}
		if len(e.Hashes) > 0 {
			b.SetAttributeRaw("hashes", hashListTokens(e.Hashes))
		}
	}
	return append([]byte(header), hclwrite.Format(f.Bytes())...)
}

func hashListTokens(hs []getproviders.Hash) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range hs {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(string(h)))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// Save writes the locks to path atomically: a temporary file beside it,
// synced, then renamed over the old one, so a crash never leaves half a
// lock file.
func Save(l *Locks, path string) hcl.Diagnostics {
	fail := func(err error) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot write the dependency lock file",
			Detail:   fmt.Sprintf("Writing %s failed: %s. The providers were installed, but the next init will select versions again.", path, err),
		}}
	}
	// Lock files are committed to version control and read by everyone.
	if err := atomicfile.Write(path, 0o644, l.Bytes()); err != nil {
		return fail(err)
	}
	return nil
}

// errorAt is an error diagnostic about the source at rng.
func errorAt(rng hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}
