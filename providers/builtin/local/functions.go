package local

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// functions are hashicorp/local v2.5.3's, with its declaration's texts.
var functions = map[string]*kit.Function{
	"direxists": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "path", Type: cty.String,
				Description: "Relative or absolute path to check for the existence of a directory",
			}},
			ReturnType: cty.Bool,
			Summary:    "Determines whether a directory exists at a given path.",
			Description: "Given a path string, will return true if the directory exists. " +
				"This function works only with directories. If used with a file, the function will return an error.\n\n" +
				"This function behaves similar to the built-in [`fileexists`](https://developer.hashicorp.com/terraform/language/functions/fileexists) function, " +
				"however, `direxists` will not replace filesystem paths including `~` with the current user's home directory path. This functionality can be achieved by using the built-in " +
				"[`pathexpand`](https://developer.hashicorp.com/terraform/language/functions/pathexpand) function with `direxists`, see example below.",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return dirExists(args[0].AsString())
		},
	},
}

// dirExists reports whether path names a directory. As in hashicorp/local,
// a relative path is taken from the process's working directory (the one
// -chdir selects, since functions run on an unconfigured provider), "~" is
// not expanded, a missing path is false and anything else at the path is
// an error blaming the argument.
func dirExists(path string) (cty.Value, *providers.FunctionError) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return cty.UnknownVal(cty.Bool), kit.ArgError(0, fmt.Sprintf("Error expanding relative path to absolute path: %s", err))
	}
	info, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return cty.False, nil
	case err != nil:
		return cty.UnknownVal(cty.Bool), kit.ArgError(0, fmt.Sprintf("Error checking for directory: %s", err))
	case !info.IsDir():
		return cty.UnknownVal(cty.Bool), kit.ArgError(0, fmt.Sprintf("Invalid file mode detected: %q was found, but is not a directory", path))
	}
	return cty.True, nil
}
