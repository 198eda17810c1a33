package config

import (
	"strings"

	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Variable is a `variable` block.
type Variable struct {
	Name        string
	Description string
	// Type is the declared type without optional-attribute markers,
	// cty.DynamicPseudoType when no type is given. ConstraintType keeps the
	// markers, so convert.Convert fills absent optional attributes with null;
	// then TypeDefaults (nil when there are none) supplies the defaults.
	Type           cty.Type
	ConstraintType cty.Type
	TypeDefaults   *typeexpr.Defaults
	// Default is cty.NilVal for a required variable; otherwise the default
	// already converted to ConstraintType with TypeDefaults applied.
	Default     cty.Value
	Sensitive   bool
	Nullable    bool // true unless `nullable = false`
	Ephemeral   bool
	Deprecated  string
	Validations []*CheckRule
	DeclRange   hcl.Range
}

func (v *Variable) declRange() hcl.Range { return v.DeclRange }

// Required reports whether the variable has no default.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// ParsesAsLiteral reports whether values given as text (-var, TF_VAR_)
// are taken as the literal string rather than parsed as HCL: true for
// untyped and primitive-typed variables.
func (v *Variable) ParsesAsLiteral() bool {
	return v.ConstraintType == cty.DynamicPseudoType || v.ConstraintType.IsPrimitiveType()
}

// CheckRule is a validation, precondition or postcondition block.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// Local is one entry of a `locals` block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

func (l *Local) declRange() hcl.Range { return l.DeclRange }

// Output is an `output` block.
type Output struct {
	Name          string
	Description   string
	Expr          hcl.Expression
	Sensitive     bool
	Ephemeral     bool
	Deprecated    string
	DependsOn     []hcl.Traversal
	Preconditions []*CheckRule
	DeclRange     hcl.Range
}

func (o *Output) declRange() hcl.Range { return o.DeclRange }

// reservedVariableNames would collide with module block arguments.
var reservedVariableNames = map[string]bool{
	"source": true, "version": true, "providers": true, "count": true,
	"for_each": true, "lifecycle": true, "depends_on": true, "locals": true,
}

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "nullable"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

func decodeVariableBlock(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name:           block.Labels[0],
		Type:           cty.DynamicPseudoType,
		ConstraintType: cty.DynamicPseudoType,
		Nullable:       true,
		DeclRange:      block.DefRange,
	}
	diags := checkName("Invalid variable name", "variable name", v.Name, labelRange(block, 0))
	if reservedVariableNames[v.Name] {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", v.Name),
			Subject:  labelRange(block, 0).Ptr(),
		})
	}
	content, d := block.Body.Content(variableSchema)
	diags = append(diags, d...)

	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		d := gohcl.DecodeExpression(attr.Expr, nil, &v.Deprecated)
		diags = append(diags, d...)
		if !d.HasErrors() && strings.TrimSpace(v.Deprecated) == "" {
			// A deprecation must tell callers what to do instead.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid `deprecated` value",
				Detail:   `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`,
				Subject:  &block.LabelRanges[0],
			})
		}
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, decodeLiteralBool(attr, &v.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, decodeLiteralBool(attr, &v.Ephemeral)...)
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		diags = append(diags, decodeLiteralBool(attr, &v.Nullable)...)
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, d := decodeTypeConstraint(attr.Expr)
		diags = append(diags, d...)
		if !d.HasErrors() {
			v.ConstraintType = ty
			v.Type = ty.WithoutOptionalAttributesDeep()
			v.TypeDefaults = defaults
		}
	}
	if attr, ok := content.Attributes["default"]; ok {
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if !d.HasErrors() {
			diags = append(diags, v.setDefault(val, attr.Expr.Range())...)
		}
	}
	for _, b := range content.Blocks {
		rule, d := decodeCheckRuleOf(b, v.Name)
		diags = append(diags, d...)
		if rule != nil {
			v.Validations = append(v.Validations, rule)
		}
	}
	return v, diags
}

func (v *Variable) setDefault(val cty.Value, rng hcl.Range) hcl.Diagnostics {
	if val.IsNull() && !v.Nullable {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   "A null default value is not valid when nullable=false.",
			Subject:  rng.Ptr(),
		}}
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	if v.ConstraintType != cty.DynamicPseudoType {
		conv, err := convert.Convert(val, v.ConstraintType)
		if err != nil {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for variable",
				Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", err),
				Subject:  rng.Ptr(),
			}}
		}
		val = conv
	}
	v.Default = val
	return nil
}

// decodeTypeConstraint reads a type expression, rejecting the quoted
// forms of very old configurations with a hint.
func decodeTypeConstraint(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, hcl.Diagnostics) {
	// In JSON syntax every type is a string ("list(string)"), read as the
	// expression it holds: only native syntax can quote one by mistake.
	if _, native := expr.(hclsyntax.Expression); !native {
		return typeexpr.TypeConstraintWithDefaults(expr)
	}
	if s, ok := literalString(expr); ok {
		hint := s
		switch s {
		case "string", "list", "map":
			if s != "string" {
				hint = s + "(string)"
			}
		}
		return cty.DynamicPseudoType, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid quoted type constraints",
			Detail:   fmt.Sprintf("Type constraints are written without quotes; remove the quotes, as in type = %s.", hint),
			Subject:  expr.Range().Ptr(),
		}}
	}
	return typeexpr.TypeConstraintWithDefaults(expr)
}

var checkRuleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

func decodeCheckRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	return decodeCheckRuleOf(block, "")
}

// decodeCheckRuleOf decodes a check rule; variable, when not empty, is the
// variable a validation block belongs to, which its condition must refer
// to. As OpenTofu, every problem of the block is reported, not only the
// first; the rule is nil when there is one.
func decodeCheckRuleOf(block *hcl.Block, variable string) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(checkRuleSchema)
	rule := &CheckRule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["condition"]; ok {
		rule.Condition = attr.Expr
		if d := ConstantCondition(block.Type, attr.Expr); d != nil {
			diags = append(diags, d)
		}
		if variable != "" && !refersToVariable(attr.Expr, variable) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable validation condition",
				Detail:   fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", variable, variable),
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		rule.ErrorMessage = attr.Expr
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return rule, diags
}

// refersToVariable reports whether expr reads var.NAME.
func refersToVariable(expr hcl.Expression, name string) bool {
	for _, t := range expr.Variables() {
		if t.RootName() != "var" || len(t) < 2 {
			continue
		}
		if attr, ok := t[1].(hcl.TraverseAttr); ok && attr.Name == name {
			return true
		}
	}
	return false
}

// ConstantCondition refuses the condition of a precondition,
// postcondition, validation or assert block (blockType) that refers to
// nothing: its result could never change, so it would check nothing.
// OpenTofu refuses it when it loads the configuration (and a test file).
func ConstantCondition(blockType string, cond hcl.Expression) *hcl.Diagnostic {
	if len(cond.Variables()) > 0 {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s expression", blockType),
		Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
		Subject:  cond.Range().Ptr(),
	}
}

func decodeLocalsBlock(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	out := make([]*Local, 0, len(attrs))
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr := attrs[name]
		diags = append(diags, checkName("Invalid local value name", "local value name", name, attr.NameRange)...)
		out = append(out, &Local{Name: name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return out, diags
}

var outputSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "value", Required: true},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}},
}

func decodeOutputBlock(block *hcl.Block) (*Output, hcl.Diagnostics) {
	o := &Output{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName("Invalid output name", "output name", o.Name, labelRange(block, 0))
	content, d := block.Body.Content(outputSchema)
	diags = append(diags, d...)
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Description)...)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Deprecated)...)
		// OpenTofu checks for emptiness only when the block had no error
		// so far.
		if !diags.HasErrors() && strings.TrimSpace(o.Deprecated) == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid `deprecated` attribute",
				Detail:   `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, decodeLiteralBool(attr, &o.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, decodeLiteralBool(attr, &o.Ephemeral)...)
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, d := decodeDependsOn(attr)
		diags = append(diags, d...)
		o.DependsOn = deps
	}
	for _, b := range content.Blocks {
		rule, d := decodeCheckRule(b)
		diags = append(diags, d...)
		if rule != nil {
			o.Preconditions = append(o.Preconditions, rule)
		}
	}
	return o, diags
}
