package funcs

import (
	"io/fs"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Mark is the type of the cty marks this package attaches. A distinct type
// keeps our marks from colliding with marks other libraries attach.
type Mark string

// SensitiveMark is the cty mark carried by sensitive values. sensitive() adds
// it, nonsensitive() removes it, issensitive() looks for it; the engine adds
// it for sensitive variables, outputs and schema attributes and reads it when
// rendering plans.
const SensitiveMark = Mark("sensitive")

// Options configures the function table for one evaluation scope.
type Options struct {
	// FS is the working directory the file functions read from. Relative
	// paths are resolved inside it. Nil means the host file system through
	// package os, with relative paths resolved against the process's current
	// directory.
	FS fs.FS

	// BaseDir is joined in front of relative paths before they are looked up.
	// OpenTofu resolves file("x") against the working directory, not the
	// module directory (modules write file("${path.module}/x")), so the
	// engine should leave this empty to match it.
	BaseDir string

	// HostDir is the host directory FS stands for. When set, absolute paths
	// and relative paths that climb out of FS ("../shared/x") are read from
	// the host file system (relative ones resolved against HostDir); when
	// empty, such paths are reported as missing.
	HostDir string

	// Pure makes the impure functions (bcrypt, timestamp, uuid) return
	// unknown strings instead of fresh values. OpenTofu evaluates them only
	// while applying: set Pure for validate and plan, clear it for apply and
	// console.
	Pure bool

	// PlanTimestamp is what plantimestamp() returns. The zero time makes
	// plantimestamp() unknown, as during validate.
	PlanTimestamp time.Time
}

// impureFunctions return a different value on every call, so they cannot be
// evaluated while planning without making every plan show a change.
var impureFunctions = []string{"bcrypt", "timestamp", "uuid"}

// staticFuncs holds the functions that do not depend on Options, built
// once, on the first Table (not at start-up of every command), so Table
// only copies them.
var staticFuncs = sync.OnceValue(func() map[string]function.Function {
	return map[string]function.Function{
		"abs":              stdlib.AbsoluteFunc,
		"alltrue":          allTrueFunc,
		"anytrue":          anyTrueFunc,
		"base64decode":     base64DecodeFunc,
		"base64encode":     base64EncodeFunc,
		"base64gunzip":     base64GunzipFunc,
		"base64gzip":       base64GzipFunc,
		"base64sha256":     makeStringHashFunc(sha256Sum, encodeBase64),
		"base64sha512":     makeStringHashFunc(sha512Sum, encodeBase64),
		"basename":         baseNameFunc,
		"bcrypt":           bcryptFunc,
		"can":              tryfunc.CanFunc,
		"ceil":             stdlib.CeilFunc,
		"chomp":            stdlib.ChompFunc,
		"chunklist":        stdlib.ChunklistFunc,
		"cidrcontains":     cidrContainsFunc,
		"cidrhost":         cidrHostFunc,
		"cidrnetmask":      cidrNetmaskFunc,
		"cidrsubnet":       cidrSubnetFunc,
		"cidrsubnets":      cidrSubnetsFunc,
		"coalesce":         coalesceFunc,
		"coalescelist":     stdlib.CoalesceListFunc,
		"compact":          stdlib.CompactFunc,
		"concat":           stdlib.ConcatFunc,
		"contains":         stdlib.ContainsFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"dirname":          dirNameFunc,
		"distinct":         stdlib.DistinctFunc,
		"element":          stdlib.ElementFunc,
		"endswith":         endsWithFunc,
		"flatten":          stdlib.FlattenFunc,
		"floor":            stdlib.FloorFunc,
		"format":           stdlib.FormatFunc,
		"formatdate":       stdlib.FormatDateFunc,
		"formatlist":       stdlib.FormatListFunc,
		"indent":           stdlib.IndentFunc,
		"index":            indexFunc,
		"issensitive":      isSensitiveFunc,
		"join":             stdlib.JoinFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"keys":             stdlib.KeysFunc,
		"length":           lengthFunc,
		"log":              stdlib.LogFunc,
		"lookup":           lookupFunc,
		"lower":            stdlib.LowerFunc,
		"matchkeys":        matchKeysFunc,
		"max":              stdlib.MaxFunc,
		"md5":              makeStringHashFunc(md5Sum, encodeHex),
		"merge":            stdlib.MergeFunc,
		"min":              stdlib.MinFunc,
		"nonsensitive":     nonsensitiveFunc,
		"one":              oneFunc,
		"parseint":         stdlib.ParseIntFunc,
		"pathexpand":       pathExpandFunc,
		"pow":              stdlib.PowFunc,
		"range":            stdlib.RangeFunc,
		"regex":            stdlib.RegexFunc,
		"regexall":         stdlib.RegexAllFunc,
		"replace":          replaceFunc,
		"reverse":          stdlib.ReverseListFunc,
		"rsadecrypt":       rsaDecryptFunc,
		"sensitive":        sensitiveFunc,
		"setintersection":  stdlib.SetIntersectionFunc,
		"setproduct":       setProductFunc,
		"setsubtract":      stdlib.SetSubtractFunc,
		"setunion":         stdlib.SetUnionFunc,
		"sha1":             makeStringHashFunc(sha1Sum, encodeHex),
		"sha256":           makeStringHashFunc(sha256Sum, encodeHex),
		"sha512":           makeStringHashFunc(sha512Sum, encodeHex),
		"signum":           stdlib.SignumFunc,
		"slice":            stdlib.SliceFunc,
		"sort":             stdlib.SortFunc,
		"split":            stdlib.SplitFunc,
		"startswith":       startsWithFunc,
		"strcontains":      strContainsFunc,
		"strrev":           stdlib.ReverseFunc,
		"substr":           stdlib.SubstrFunc,
		"sum":              sumFunc,
		"textdecodebase64": textDecodeBase64Func,
		"textencodebase64": textEncodeBase64Func,
		"timeadd":          stdlib.TimeAddFunc,
		"timecmp":          timeCmpFunc,
		"timestamp":        timestampFunc,
		"title":            stdlib.TitleFunc,
		"tobool":           makeToFunc(cty.Bool),
		"tolist":           makeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":            makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":         makeToFunc(cty.Number),
		"toset":            makeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":         makeToFunc(cty.String),
		"transpose":        transposeFunc,
		"trim":             stdlib.TrimFunc,
		"trimprefix":       stdlib.TrimPrefixFunc,
		"trimspace":        stdlib.TrimSpaceFunc,
		"trimsuffix":       stdlib.TrimSuffixFunc,
		"try":              tryfunc.TryFunc,
		"upper":            stdlib.UpperFunc,
		"urldecode":        urlDecodeFunc,
		"urlencode":        urlEncodeFunc,
		"uuid":             uuidFunc,
		"uuidv5":           uuidV5Func,
		"values":           stdlib.ValuesFunc,
		"yamldecode":       ctyyaml.YAMLDecodeFunc,
		"yamlencode":       ctyyaml.YAMLEncodeFunc,
		"zipmap":           stdlib.ZipmapFunc,
	}
})

// Table returns every built-in function by name, each also under its
// core:: name (CoreNamespace). The map is freshly built on
// each call and owned by the caller; building it costs a map copy, so the
// engine may build one per evaluation scope.
func Table(opts Options) map[string]function.Function {
	files := fileReader{fsys: opts.FS, baseDir: opts.BaseDir, hostDir: opts.HostDir}
	static := staticFuncs()
	table := make(map[string]function.Function, 2*(len(static)+16))
	for name, fn := range static {
		table[name] = fn
	}
	table["abspath"] = makeAbsPathFunc(files)
	table["file"] = makeFileFunc(files)
	table["filebase64"] = makeFileBase64Func(files)
	table["filebase64sha256"] = makeFileHashFunc(files, sha256Sum, encodeBase64)
	table["filebase64sha512"] = makeFileHashFunc(files, sha512Sum, encodeBase64)
	table["fileexists"] = makeFileExistsFunc(files)
	table["filemd5"] = makeFileHashFunc(files, md5Sum, encodeHex)
	table["fileset"] = makeFileSetFunc(files)
	table["filesha1"] = makeFileHashFunc(files, sha1Sum, encodeHex)
	table["filesha256"] = makeFileHashFunc(files, sha256Sum, encodeHex)
	table["filesha512"] = makeFileHashFunc(files, sha512Sum, encodeHex)
	table["plantimestamp"] = makePlanTimestampFunc(opts.PlanTimestamp)
	if opts.Pure {
		for _, name := range impureFunctions {
			table[name] = function.Unpredictable(table[name])
		}
	}

	// Templates see every function except the template functions
	// themselves, which would allow unbounded recursion.
	inner := make(map[string]function.Function, 2*(len(table)+2))
	for name, fn := range table {
		inner[name] = fn
	}
	inner["templatefile"] = makeNoRecursionFunc("templatefile", 2)
	inner["templatestring"] = makeNoRecursionFunc("templatestring", 2)
	addCoreNames(inner)
	table["templatefile"] = makeTemplateFileFunc(files, inner)
	table["templatestring"] = makeTemplateStringFunc(inner)
	addCoreNames(table)
	return table
}

// CoreNamespace prefixes the second name every built-in function has:
// OpenTofu 1.10 accepts core::abs(-1) as abs(-1), so that a provider
// function of the same name cannot hide the built-in one.
const CoreNamespace = "core::"

// addCoreNames adds each function of table under its core:: name too.
func addCoreNames(table map[string]function.Function) {
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	for _, name := range names {
		table[CoreNamespace+name] = table[name]
	}
}
