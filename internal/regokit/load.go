package regokit

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
)

// ParseFile parses one Rego file with its METADATA. With version RegoV0
// or RegoV1 it parses that version; with RegoUndefined it tries v1 and
// falls back to v0 (the syntax of most conftest policies, `deny[msg] {
// … }`) when the file does not parse as v1 and does not import rego.v1.
// When both parses fail, the error found furthest into the file is
// returned: it is the one closest to the typo.
func ParseFile(filename string, src []byte, version ast.RegoVersion) (*ast.Module, error) {
	parse := func(v ast.RegoVersion) (*ast.Module, error) {
		return ast.ParseModuleWithOpts(filename, string(src), ast.ParserOptions{RegoVersion: v, ProcessAnnotation: true})
	}
	if version == ast.RegoV0 || version == ast.RegoV1 {
		return parse(version)
	}
	m1, err1 := parse(ast.RegoV1)
	if err1 == nil {
		return m1, nil
	}
	if strings.Contains(string(src), "import rego.v1") {
		return nil, err1
	}
	m0, err0 := parse(ast.RegoV0)
	if err0 == nil {
		return m0, nil
	}
	if errorOffset(err0) > errorOffset(err1) {
		return nil, err0
	}
	return nil, err1
}

func errorOffset(err error) int {
	errs, ok := err.(ast.Errors)
	if !ok || len(errs) == 0 || errs[0].Location == nil {
		return -1
	}
	return errs[0].Location.Offset
}

// Dir is a directory tree of Rego files to load.
type Dir struct {
	FS fs.FS
	// Name is the directory as the user gave it: files are shown as
	// NAME/PATH, and messages name it.
	Name string
	// Noun names the files in diagnostics: "rule" gives "Invalid rule
	// file" and "Cannot read rule files".
	Noun string
	// Version is the Rego version to parse (see [ParseFile]).
	Version ast.RegoVersion
	// Keep says which files are parsed as Rego, by base name.
	Keep func(name string) bool
	// SkipHidden leaves out the directories whose names start with ".".
	SkipHidden bool
	// Other, if set, is given each file Keep refuses (its path in FS and
	// its shown name); its diagnostics join the others in walk order, and
	// an error stops the walk.
	Other func(rel, shown string) (hcl.Diagnostics, error)
}

// File is one parsed Rego file of a [Dir].
type File struct {
	Module *ast.Module
	// Shown is the name in messages and locations (Dir.Name joined with
	// Rel); Rel is the path inside the directory.
	Shown, Rel string
}

// Load parses the kept files of the directory in lexical order. A file
// that does not parse is reported with its file and line and left out;
// a directory that cannot be read is one diagnostic naming it.
func (d Dir) Load() ([]File, hcl.Diagnostics) {
	var files []File
	var diags hcl.Diagnostics
	base := filepath.ToSlash(d.Name)
	err := fs.WalkDir(d.FS, ".", func(p string, ent fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ent.IsDir() {
			if d.SkipHidden && p != "." && strings.HasPrefix(ent.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		shown := path.Join(base, p)
		if !d.Keep(ent.Name()) {
			if d.Other == nil {
				return nil
			}
			more, err := d.Other(p, shown)
			diags = append(diags, more...)
			return err
		}
		b, err := fs.ReadFile(d.FS, p)
		if err != nil {
			return err
		}
		m, err := ParseFile(shown, b, d.Version)
		if err != nil {
			diags = append(diags, ErrorDiags("Invalid "+d.Noun+" file", err)...)
			return nil
		}
		files = append(files, File{Module: m, Shown: shown, Rel: p})
		return nil
	})
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot read " + d.Noun + " files",
			Detail:   fmt.Sprintf("Reading the %s directory %s failed: %s. Check that it exists and is readable.", d.Noun, d.Name, err),
		})
	}
	return files, diags
}
