package funcs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

var dirNameFunc = function.New(&function.Spec{
	Description:  "Returns the path without its last element.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Dir(args[0].AsString())), nil
	},
})

var baseNameFunc = function.New(&function.Spec{
	Description:  "Returns the last element of the path.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Base(args[0].AsString())), nil
	},
})

var pathExpandFunc = function.New(&function.Spec{
	Description:  "Replaces a leading ~ with the current user's home directory.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := expandHome(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(p), nil
	},
})

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
	return function.New(&function.Spec{
		Description:  "Converts a path relative to the working directory into an absolute path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) && r.hostDir != "" {
				p = filepath.Join(r.hostDir, p)
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(filepath.ToSlash(abs)), nil
		},
	})
}
