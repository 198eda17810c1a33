package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/internal/udiff"
)

// fmtExtensions are the files fmt rewrites; JSON forms are left alone.
var fmtExtensions = []string{".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl"}

// fmtRun is one fmt invocation's choices, as OpenTofu's fmt makes them:
// reading standard input turns listing and writing off, and -check lists
// into a buffer instead of writing.
type fmtRun struct {
	list, write, diff bool
	out               io.Writer
	files             map[string]*hcl.File // sources of the diagnostics
	diags             hcl.Diagnostics
}

func newFmtCommand(g *globals) *cobra.Command {
	var check, diff, recursive, list, write bool
	cmd := &cobra.Command{
		Use:   "fmt [options] [TARGET...]",
		Short: "Rewrite configuration files to the canonical format",
		Long: "Rewrites the configuration (.tf, .tofu), variables (.tfvars) and test (.tftest.hcl,\n" +
			".tofutest.hcl) files in TARGET (default: the working directory) to the canonical\n" +
			"format. TARGET may be files or directories; \"-\" formats standard input to\n" +
			"standard output. JSON files are not modified.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			r := &fmtRun{list: list, write: write, diff: diff, out: u.out, files: map[string]*hcl.File{}}
			var paths []string
			fromStdin := len(args) > 0 && args[0] == "-"
			switch {
			case len(args) == 0:
				paths = []string{"."}
			case fromStdin:
				r.list, r.write = false, false
			default:
				paths = args
			}
			listChecked := r.list
			var checked bytes.Buffer
			if check {
				r.list, r.write, r.out = true, false, &checked
			}
			if fromStdin {
				r.file("<stdin>", cmd.InOrStdin())
			} else {
				r.paths(paths, recursive)
			}
			if len(r.diags) > 0 {
				u.files = r.files
				if u.diagnostics(r.diags) {
					return &exitError{2}
				}
			}
			if check {
				if listChecked && checked.Len() > 0 {
					writeLine(u.out, checked.Bytes())
				}
				if checked.Len() > 0 {
					return &exitError{3}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "check formatting; exit 3 if any file would change")
	cmd.Flags().Bool("no-color", false, "disable color")
	cmd.Flags().BoolVar(&diff, "diff", false, "show the changes")
	cmd.Flags().BoolVar(&recursive, "recursive", false, "also process subdirectories")
	cmd.Flags().BoolVar(&list, "list", true, "list files whose formatting changed")
	cmd.Flags().BoolVar(&write, "write", true, "write the result to the source file")
	return cmd
}

// paths formats each target in turn; a target that does not exist ends
// the run, as in OpenTofu, while a file fmt does not handle is reported
// and the others still formatted.
func (r *fmtRun) paths(paths []string, recursive bool) {
	for _, p := range paths {
		p = relativeToWorkingDir(p)
		info, err := os.Stat(p)
		if err != nil {
			r.fail("No file or directory at %s", p)
			return
		}
		if info.IsDir() {
			r.dir(p, recursive)
			continue
		}
		if !hasFmtExtension(p) {
			r.fail("Only .tf, .tfvars, and .tftest.hcl files can be processed with tenet fmt")
			continue
		}
		r.open(p)
	}
}

// dir formats the directory's files in name order, and its
// subdirectories' with -recursive, skipping hidden and editor files.
func (r *fmtRun) dir(path string, recursive bool) {
	entries, err := os.ReadDir(path)
	if err != nil {
		if os.IsNotExist(err) {
			r.fail("There is no configuration directory at %s", path)
		} else {
			r.fail("Cannot read directory %s", path)
		}
		return
	}
	for _, e := range entries {
		name := e.Name()
		if config.IsIgnoredFile(name) {
			continue
		}
		sub := filepath.Join(path, name)
		switch {
		case e.IsDir():
			if recursive {
				r.dir(sub, recursive)
			}
		case hasFmtExtension(name):
			r.open(relativeToWorkingDir(sub))
		}
	}
}

func (r *fmtRun) open(path string) {
	f, err := os.Open(path)
	if err != nil {
		r.fail("Failed to read file %s", path)
		return
	}
	defer f.Close()
	r.file(path, f)
}

// file formats one file's source: a file that does not parse is reported
// and never rewritten.
func (r *fmtRun) file(path string, in io.Reader) {
	src, err := io.ReadAll(in)
	if err != nil {
		r.fail("Failed to read %s", path)
		return
	}
	if diags := config.CheckNesting(src, path, false); diags.HasErrors() {
		r.diags = append(r.diags, diags...)
		return
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	r.files[path] = f
	if diags.HasErrors() {
		r.diags = append(r.diags, diags...)
		return
	}
	formatted := config.Format(src)
	if !bytes.Equal(src, formatted) {
		if r.list {
			fmt.Fprintln(r.out, path)
		}
		if r.write {
			if err := os.WriteFile(path, formatted, 0o644); err != nil {
				r.fail("Failed to write %s", path)
				return
			}
		}
		if r.diff {
			writeLine(r.out, udiff.Unified("old/"+path, "new/"+path, src, formatted))
		}
	}
	if !r.list && !r.write && !r.diff {
		writeLine(r.out, formatted)
	}
}

func (r *fmtRun) fail(format string, args ...any) {
	r.diags = append(r.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf(format, args...)})
}

func hasFmtExtension(name string) bool {
	for _, ext := range fmtExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// writeLine writes b ending in exactly one newline of its own, as
// OpenTofu's output of fmt's results does (an empty result is an empty
// line).
func writeLine(w io.Writer, b []byte) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	w.Write(b)
	io.WriteString(w, "\n")
}

// relativeToWorkingDir names path relative to the working directory
// where it can, as OpenTofu names the files it formats.
func relativeToWorkingDir(path string) string {
	wd, err := filepath.Abs(".")
	if err != nil {
		return filepath.Clean(path)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		return filepath.Clean(path)
	}
	return rel
}
