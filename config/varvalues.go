package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// VarSource is one -var or -var-file option, in command-line order.
type VarSource struct {
	Kind  string // "cli" for -var NAME=VALUE, "file" for -var-file
	Name  string // -var
	Value string // -var
	File  string // -var-file, relative to dir unless absolute
	// Invalid says why a -var option could not be read as NAME=VALUE;
	// it is reported where values are collected, as OpenTofu does.
	Invalid string
}

// ParseVarOption reads a -var option. Like OpenTofu it wants an "=" and
// refuses a name ending in a blank (a likely "NAME = VALUE" typo); either
// problem is kept in Invalid.
func ParseVarOption(raw string) VarSource {
	name, value, found := strings.Cut(raw, "=")
	switch {
	case !found:
		return VarSource{Kind: ValueFromCLI, Invalid: fmt.Sprintf("The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", raw)}
	case strings.HasSuffix(name, " "):
		return VarSource{Kind: ValueFromCLI, Invalid: fmt.Sprintf("Variable name %q is invalid due to trailing space. Did you mean -var=\"%s=%s\"?", name, strings.TrimSuffix(name, " "), strings.TrimPrefix(value, " "))}
	}
	return VarSource{Kind: ValueFromCLI, Name: name, Value: value}
}

// Where a variable value came from (VariableValue.SourceType).
const (
	ValueFromEnv   = "env"
	ValueFromFile  = "file"
	ValueFromCLI   = "cli"
	ValueFromInput = "input" // typed at an interactive prompt
)

// VariableValue is a value given for a root module variable. Value is not
// yet converted to the declared type; the engine converts it and reports
// "Invalid value for input variable" at SourceRange.
type VariableValue struct {
	Value cty.Value
	// Expr is the expression that produced the value (files and parsed
	// -var values), for diagnostics; nil for literal strings.
	Expr        hcl.Expression
	SourceType  string
	SourceRange hcl.Range
}

// CollectVariableValues gathers values for the root module's variables,
// later sources overriding earlier ones: TF_VAR_NAME environment entries,
// terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) in name
// order, then -var and -var-file options in the order given. env holds
// "KEY=VALUE" entries (os.Environ() form).
func CollectVariableValues(fsys fs.FS, dir string, root *Module, cli []VarSource, env []string) (map[string]VariableValue, hcl.Diagnostics) {
	c := &collector{root: root, values: map[string]VariableValue{}, parser: hclparse.NewParser()}
	c.collect(fsys, dir, cli, env)
	return c.values, c.diags
}

// CheckVariableSources reads the variable values' sources as
// CollectVariableValues does but reports only what keeps them from being
// read: unreadable or malformed files, -var options without a name. It is
// what OpenTofu's validate and output make of -var and -var-file, which
// they accept without using the values.
func CheckVariableSources(fsys fs.FS, dir string, cli []VarSource) hcl.Diagnostics {
	c := &collector{readOnly: true, parser: hclparse.NewParser()}
	c.collect(fsys, dir, cli, nil)
	return c.diags
}

func (c *collector) collect(fsys fs.FS, dir string, cli []VarSource, env []string) {
	dir = cleanDir(dir)

	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		name, ok = strings.CutPrefix(name, "TF_VAR_")
		if !ok || name == "" {
			continue
		}
		v, declared := c.root.Variables[name]
		if !declared {
			continue // undeclared environment values are ignored silently
		}
		c.setText(v, name, value, ValueFromEnv)
	}

	for _, name := range autoVarFiles(fsys, dir) {
		c.loadFile(func() ([]byte, error) { return fs.ReadFile(fsys, path.Join(dir, name)) }, path.Join(dir, name))
	}

	for _, src := range cli {
		switch src.Kind {
		case "file":
			file := src.File
			if filepath.IsAbs(file) {
				c.loadFile(func() ([]byte, error) { return os.ReadFile(file) }, file)
			} else {
				joined := path.Join(dir, filepath.ToSlash(file))
				c.loadFile(func() ([]byte, error) { return fs.ReadFile(fsys, joined) }, joined)
			}
		default:
			if src.Invalid != "" {
				c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -var option", Detail: src.Invalid})
				continue
			}
			if c.readOnly {
				continue
			}
			v, declared := c.root.Variables[src.Name]
			if !declared {
				c.diags = append(c.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Value for undeclared variable",
					Detail:   fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", src.Name),
				})
				continue
			}
			c.setText(v, src.Name, src.Value, ValueFromCLI)
		}
	}
}

type collector struct {
	root   *Module
	values map[string]VariableValue
	parser *hclparse.Parser
	diags  hcl.Diagnostics
	// readOnly only reads the sources, for CheckVariableSources.
	readOnly bool
}

// autoVarFiles lists the tfvars files read without being named:
// terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars(.json).
func autoVarFiles(fsys fs.FS, dir string) []string {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var fixed, auto []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch n := e.Name(); {
		case n == "terraform.tfvars" || n == "terraform.tfvars.json":
			fixed = append(fixed, n)
		case strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json"):
			auto = append(auto, n)
		}
	}
	// "terraform.tfvars" sorts before "terraform.tfvars.json", as wanted.
	sort.Strings(fixed)
	sort.Strings(auto)
	return append(fixed, auto...)
}

// setText stores a value given as text.
func (c *collector) setText(v *Variable, name, text, sourceType string) {
	val, diags := VariableValueFromText(v, text, sourceType)
	c.diags = append(c.diags, diags...)
	if !diags.HasErrors() {
		c.values[name] = val
	}
}

// VariableValueFromText reads a value given as text (an environment
// variable, a -var option, an answer at a prompt): taken literally for
// untyped and primitive-typed variables, otherwise parsed as an HCL
// expression.
func VariableValueFromText(v *Variable, text, sourceType string) (VariableValue, hcl.Diagnostics) {
	if v.ParsesAsLiteral() {
		return VariableValue{Value: cty.StringVal(text), SourceType: sourceType}, nil
	}
	// OpenTofu names the source after the variable whatever its origin.
	filename := fmt.Sprintf("<value for var.%s>", v.Name)
	if diags := CheckExprNesting([]byte(text), filename, hcl.InitialPos); diags.HasErrors() {
		return VariableValue{}, diags
	}
	expr, diags := hclsyntax.ParseExpression([]byte(text), filename, hcl.InitialPos)
	if diags.HasErrors() {
		return VariableValue{}, diags
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return VariableValue{}, diags
	}
	return VariableValue{Value: val, Expr: expr, SourceType: sourceType, SourceRange: expr.Range()}, nil
}

// loadFile reads one tfvars file.
func (c *collector) loadFile(read func() ([]byte, error), filename string) {
	src, err := read()
	if err != nil {
		// OpenTofu's words: a missing file is named as such, other
		// failures give the system's reason.
		detail := fmt.Sprintf("Error while reading %s: %s.", filename, err)
		if errors.Is(err, fs.ErrNotExist) {
			detail = fmt.Sprintf("Given variables file %s does not exist.", filename)
		}
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to read variables file",
			Detail:   detail,
		})
		return
	}
	if diags := CheckNesting(src, filename, strings.HasSuffix(filename, ".json")); diags.HasErrors() {
		c.diags = append(c.diags, diags...)
		return
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(filename, ".json") {
		f, diags = c.parser.ParseJSON(src, filename)
	} else {
		f, diags = c.parser.ParseHCL(src, filename)
	}
	c.diags = append(c.diags, diags...)
	if f == nil || diags.HasErrors() {
		return
	}
	attrs, diags := f.Body.JustAttributes()
	c.diags = append(c.diags, diags...)
	if c.readOnly {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr := attrs[name]
		if _, declared := c.root.Variables[name]; !declared {
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. To use this value, add a \"variable\" block to the configuration.", name, filename),
				Subject:  attr.NameRange.Ptr(),
			})
			continue
		}
		val, d := attr.Expr.Value(nil)
		c.diags = append(c.diags, d...)
		if d.HasErrors() {
			continue
		}
		c.values[name] = VariableValue{Value: val, Expr: attr.Expr, SourceType: ValueFromFile, SourceRange: attr.Expr.Range()}
	}
}

// MissingRootVariables reports the root module's variables that have no
// default and were given no value. OpenTofu checks this before it plans,
// so these errors come alone, before any other problem of the
// configuration, and no plan is started.
func MissingRootVariables(root *Module, given map[string]VariableValue) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range UnsetRequiredVariables(root, given) {
		diags = append(diags, NoValueForRequiredVariable(v))
	}
	// In the order of the declarations, as OpenTofu lists them.
	slices.SortStableFunc(diags, func(a, b *hcl.Diagnostic) int {
		if a.Subject.Filename != b.Subject.Filename {
			return strings.Compare(a.Subject.Filename, b.Subject.Filename)
		}
		return a.Subject.Start.Byte - b.Subject.Start.Byte
	})
	return diags
}

// UnsetRequiredVariables are the root module's variables without a
// default that were given no value, in name order.
func UnsetRequiredVariables(root *Module, given map[string]VariableValue) []*Variable {
	var out []*Variable
	for _, name := range slices.Sorted(maps.Keys(root.Variables)) {
		if v := root.Variables[name]; v.Default == cty.NilVal {
			if _, ok := given[name]; !ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// NoValueForRequiredVariable is the error for a root module variable
// without a default that was given no value.
func NoValueForRequiredVariable(v *Variable) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No value for required variable",
		Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", v.Name),
		Subject:  v.DeclRange.Ptr(),
	}
}
