package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/config/funcs"
)

// functionsFormatVersion is the format_version of `metadata functions
// -json`, the one OpenTofu 1.10 writes.
const functionsFormatVersion = "1.0"

func newMetadataCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "metadata <subcommand>",
		Short: "Print metadata about tenet itself, such as the functions the language offers",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newMetadataFunctionsCommand(g))
	return cmd
}

func newMetadataFunctionsCommand(g *globals) *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "functions -json",
		Short: "Print the signatures of the built-in functions as JSON",
		Long: "Prints a JSON document with the signature of every built-in function of the language:\n" +
			"its parameters, their types, the variadic parameter and the return type.",
		// Extra arguments are ignored, as by OpenTofu.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			if !jsonOut {
				// As OpenTofu: there is no human form, so the flag is required.
				return wrongArgCount(cmd, g, !noColorFlag(cmd), "The `tenet metadata functions` command requires the `-json` flag.\n", false, helpInRed)
			}
			doc, diags := functionSignaturesJSON(funcs.Table(funcs.Options{}))
			if diags.HasErrors() {
				return u.fail(diags)
			}
			_, err := fmt.Fprintln(u.out, string(doc))
			return err
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the signatures as JSON (required)")
	return cmd
}

// functionsDoc is the document `metadata functions -json` prints.
type functionsDoc struct {
	FormatVersion      string                        `json:"format_version"`
	FunctionSignatures map[string]*functionSignature `json:"function_signatures"`
}

type functionSignature struct {
	Description       string               `json:"description,omitempty"`
	ReturnType        json.RawMessage      `json:"return_type"`
	Parameters        []*functionParameter `json:"parameters,omitempty"`
	VariadicParameter *functionParameter   `json:"variadic_parameter,omitempty"`
}

type functionParameter struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	IsNullable  bool            `json:"is_nullable,omitempty"`
	Type        json.RawMessage `json:"type"`
}

// functionSignaturesJSON describes every function of table. A function
// whose signature cannot be described is an error naming it, never left
// out: the list must be the language's whole function set.
func functionSignaturesJSON(table map[string]function.Function) ([]byte, hcl.Diagnostics) {
	doc := functionsDoc{FormatVersion: functionsFormatVersion, FunctionSignatures: make(map[string]*functionSignature, len(table))}
	var diags hcl.Diagnostics
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sig, err := describeFunction(table[name])
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot describe function " + name,
				Detail:   fmt.Sprintf("The signature of %s could not be written as JSON: %s. This is a bug in tenet; please report it.", name, err),
			})
			continue
		}
		doc.FunctionSignatures[name] = sig
	}
	if diags.HasErrors() {
		return nil, diags
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot write the function signatures", Detail: err.Error()}}
	}
	return b, nil
}

// describeFunction gives f's signature. The return type is the one f
// gives for its parameters' declared types, which is cty.DynamicPseudoType
// for a function whose result depends on its arguments' types.
func describeFunction(f function.Function) (*functionSignature, error) {
	sig := &functionSignature{Description: f.Description()}
	params := f.Params()
	argTypes := make([]cty.Type, 0, len(params)+1)
	for i := range params {
		p, err := describeParameter(&params[i])
		if err != nil {
			return nil, err
		}
		sig.Parameters = append(sig.Parameters, p)
		argTypes = append(argTypes, params[i].Type)
	}
	if vp := f.VarParam(); vp != nil {
		p, err := describeParameter(vp)
		if err != nil {
			return nil, err
		}
		sig.VariadicParameter = p
		argTypes = append(argTypes, vp.Type)
	}
	ret, err := f.ReturnType(argTypes)
	// A function taking unevaluated expressions (try) may decide its type
	// only from what they evaluate to: to a caller it is "dynamic".
	if err != nil && slices.ContainsFunc(argTypes, cty.Type.IsCapsuleType) {
		ret, err = cty.DynamicPseudoType, nil
	}
	if err != nil {
		return nil, fmt.Errorf("its return type: %w", err)
	}
	if sig.ReturnType, err = marshalParamType(ret); err != nil {
		return nil, err
	}
	return sig, nil
}

func describeParameter(p *function.Parameter) (*functionParameter, error) {
	ty, err := marshalParamType(p.Type)
	if err != nil {
		return nil, fmt.Errorf("the type of parameter %s: %w", p.Name, err)
	}
	return &functionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: ty}, nil
}

// marshalParamType writes a type as cty's JSON type syntax. try and can
// take their arguments as unevaluated expressions, a capsule type with
// no JSON form; to a caller they accept any value, so they are "dynamic".
func marshalParamType(ty cty.Type) (json.RawMessage, error) {
	if ty.IsCapsuleType() {
		ty = cty.DynamicPseudoType
	}
	return ctyjson.MarshalType(ty)
}
