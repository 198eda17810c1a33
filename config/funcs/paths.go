package funcs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty/function"
)

var dirNameFunc = stringFunc("Returns the path without its last element.", "path", cannotFail(filepath.Dir))

var baseNameFunc = stringFunc("Returns the last element of the path.", "path", cannotFail(filepath.Base))

var pathExpandFunc = stringFunc("Replaces a leading ~ with the current user's home directory.", "path", expandHome)

// expandHome expands "~" and "~/..." only: "~user" forms are refused
// because they need a user database lookup.
func expandHome(p string) (string, error) {
	if !strings.HasPrefix(p, "~") {
		return p, nil
	}
	if len(p) > 1 && p[1] != '/' && p[1] != '\\' {
		return "", errors.New("cannot expand user-specific home dir")
	}
	home := os.Getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return home + p[1:], nil
}

func makeAbsPathFunc(r fileReader) function.Function {
	return stringFunc("Converts a path relative to the working directory into an absolute path.", "path", func(p string) (string, error) {
		if !filepath.IsAbs(p) && r.hostDir != "" {
			p = filepath.Join(r.hostDir, p)
		}
		abs, err := filepath.Abs(p)
		return filepath.ToSlash(abs), err
	})
}
