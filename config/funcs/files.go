package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// fileReader resolves the paths given to file functions. See Options for
// the meaning of each field.
type fileReader struct {
	fsys    fs.FS
	baseDir string
	hostDir string
}

// rootFS stands for the whole host file system; names given to it are
// absolute paths without their leading slash.
var rootFS = os.DirFS("/")

// resolve turns a user-written path into a file system and a name valid in
// it. ok is false when the path lies outside every file system we may read.
func (r fileReader) resolve(p string) (fsys fs.FS, name string, ok bool) {
	p, err := expandHome(p)
	if err != nil {
		return nil, "", false
	}
	if !filepath.IsAbs(p) && r.baseDir != "" {
		p = filepath.Join(r.baseDir, p)
	}
	if r.fsys != nil && !filepath.IsAbs(p) {
		clean := path.Clean(filepath.ToSlash(p))
		if fs.ValidPath(clean) {
			return r.fsys, clean, true
		}
	}
	switch {
	case r.fsys == nil:
	case filepath.IsAbs(p) && r.hostDir != "":
	case r.hostDir != "":
		p = filepath.Join(r.hostDir, p)
	default:
		return nil, "", false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, "", false
	}
	return rootFS, strings.TrimPrefix(filepath.ToSlash(abs), "/"), true
}

func (r fileReader) read(p, quoted string) ([]byte, error) {
	fsys, name, ok := r.resolve(p)
	if !ok {
		return nil, noFileError(quoted)
	}
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noFileError(quoted)
	}
	if err != nil {
		return nil, function.NewArgErrorf(0, "failed to read file %s", quoted)
	}
	return data, nil
}

func noFileError(quoted string) error {
	return function.NewArgErrorf(0, "no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", quoted)
}

// makeFileReadFunc is a function of one path that reads the file and
// turns its bytes into a string with convert.
func makeFileReadFunc(r fileReader, description string, convert func(data []byte, quoted string) (cty.Value, error)) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{secretStringParam("path")},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: secretStringImpl(func(p, quoted string) (cty.Value, error) {
			data, err := r.read(p, quoted)
			if err != nil {
				return cty.NilVal, err
			}
			return convert(data, quoted)
		}),
	})
}

func makeFileFunc(r fileReader) function.Function {
	return makeFileReadFunc(r, "Reads the contents of a UTF-8 text file.", func(data []byte, quoted string) (cty.Value, error) {
		if !utf8.Valid(data) {
			return cty.NilVal, function.NewArgErrorf(0, "contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", quoted)
		}
		return cty.StringVal(string(data)), nil
	})
}

func makeFileBase64Func(r fileReader) function.Function {
	return makeFileReadFunc(r, "Reads a file and returns its bytes encoded as Base64.", func(data []byte, _ string) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString(data)), nil
	})
}

func makeFileHashFunc(r fileReader, hash hashFunc, encode func([]byte) string) function.Function {
	return makeFileReadFunc(r, "Hashes the contents of a file.", func(data []byte, _ string) (cty.Value, error) {
		return cty.StringVal(encode(hash(data))), nil
	})
}

func makeFileExistsFunc(r fileReader) function.Function {
	return function.New(&function.Spec{
		Description:  "Reports whether a regular file exists at the given path.",
		Params:       []function.Parameter{secretStringParam("path")},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: secretStringImpl(func(p, quoted string) (cty.Value, error) {
			fsys, name, ok := r.resolve(p)
			if !ok {
				return cty.False, nil
			}
			info, err := fs.Stat(fsys, name)
			if errors.Is(err, fs.ErrNotExist) {
				return cty.False, nil
			}
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "failed to stat %s", quoted)
			}
			if !info.Mode().IsRegular() {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not a regular file, but %q", quoted, info.Mode().String())
			}
			return cty.True, nil
		}),
	})
}

// makeFileSetFunc lists the regular files under a directory whose paths,
// relative to it, match a glob pattern. Patterns support *, ?, [class],
// {alt,ernatives} and ** for any number of directories.
func makeFileSetFunc(r fileReader) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the set of file paths under path matching pattern.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "pattern", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			dir, pattern := args[0].AsString(), args[1].AsString()
			patterns, err := compileGlob(pattern)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "failed to glob pattern %q: %s", pattern, err)
			}
			fsys, root, ok := r.resolve(dir)
			if !ok {
				return cty.SetValEmpty(cty.String), nil
			}
			var found []cty.Value
			err = fs.WalkDir(fsys, root, func(name string, d fs.DirEntry, err error) error {
				if err != nil {
					if name == root && errors.Is(err, fs.ErrNotExist) {
						return fs.SkipAll
					}
					return err
				}
				rel := strings.TrimPrefix(strings.TrimPrefix(name, root), "/")
				if root == "." {
					rel = name
				}
				if rel == "" || rel == "." {
					return nil
				}
				segs := strings.Split(rel, "/")
				if d.IsDir() {
					if !patterns.couldMatchBelow(segs) {
						return fs.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() && patterns.match(segs) {
					found = append(found, cty.StringVal(rel))
				}
				return nil
			})
			if err != nil {
				return cty.NilVal, fmt.Errorf("failed to glob pattern %q: %w", pattern, err)
			}
			if len(found) == 0 {
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(found), nil
		},
	})
}

// glob is a pattern split into path segments, one alternative per brace
// expansion.
type glob [][]string

func compileGlob(pattern string) (glob, error) {
	var g glob
	for _, alt := range expandBraces(filepath.ToSlash(pattern)) {
		segs := strings.Split(strings.TrimPrefix(path.Clean(alt), "./"), "/")
		for _, seg := range segs {
			if seg == "**" {
				continue
			}
			if _, err := path.Match(seg, ""); err != nil {
				return nil, err
			}
		}
		g = append(g, segs)
	}
	return g, nil
}

func (g glob) match(segs []string) bool {
	for _, pat := range g {
		if matchSegments(pat, segs) {
			return true
		}
	}
	return false
}

func (g glob) couldMatchBelow(dir []string) bool {
	for _, pat := range g {
		if couldDescend(pat, dir) {
			return true
		}
	}
	return false
}

func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// couldDescend reports whether some path below dir could match pat, so the
// walk can skip directories that cannot contain matches.
func couldDescend(pat, dir []string) bool {
	for len(dir) > 0 {
		if len(pat) == 0 {
			return false
		}
		if pat[0] == "**" {
			return true
		}
		if ok, _ := path.Match(pat[0], dir[0]); !ok {
			return false
		}
		pat, dir = pat[1:], dir[1:]
	}
	return len(pat) > 0
}

// expandBraces rewrites "a{b,c}d" into "abd" and "acd", recursively.
func expandBraces(pattern string) []string {
	open := -1
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			var out []string
			for _, alt := range splitTopLevel(pattern[open+1 : i]) {
				out = append(out, expandBraces(pattern[:open]+alt+pattern[i+1:])...)
			}
			return out
		}
	}
	return []string{pattern}
}

func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}
