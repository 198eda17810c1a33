package config

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNestingDepth bounds how deeply an expression may nest: brackets,
// braces, parentheses, strings, template sequences and operators. The HCL
// parser and evaluator recurse once (or more) per level, so without a bound
// a file of 100,000 brackets exhausts the stack and kills the process, and
// values a few thousand levels deep cannot be written as a JSON plan. No
// configuration written by hand comes near it.
const MaxNestingDepth = 1000

// CheckNesting reports, before parsing, a native-syntax (isJSON false) or
// JSON source whose nesting exceeds MaxNestingDepth, at the place it does.
func CheckNesting(src []byte, filename string, isJSON bool) hcl.Diagnostics {
	if isJSON {
		return checkJSONNesting(src, filename)
	}
	return checkNativeNesting(src, filename, hcl.InitialPos)
}

// CheckExprNesting is CheckNesting for a lone native-syntax expression
// (a -var value), starting at pos.
func CheckExprNesting(src []byte, filename string, pos hcl.Pos) hcl.Diagnostics {
	return checkNativeNesting(src, filename, pos)
}

func nestingDiag(rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Expression nested too deeply",
		Detail: fmt.Sprintf("This expression nests more than %d levels deep (brackets, braces, parentheses, strings, template sequences and operators all count), which is the most tenet accepts. "+
			"Split it into smaller parts, for example with local values.", MaxNestingDepth),
		Subject: rng.Ptr(),
	}}
}

// checkNativeNesting works on tokens, so brackets inside strings and
// comments do not count. Each opening token starts a level; operators and
// `?` deepen the tree the parser builds within their level (a chain of
// a + b + c ... is as deep as it is long), until a comma or newline ends
// the expression.
func checkNativeNesting(src []byte, filename string, pos hcl.Pos) hcl.Diagnostics {
	toks, _ := hclsyntax.LexConfig(src, filename, pos)
	return checkTokenNesting(toks)
}

func checkTokenNesting(toks hclsyntax.Tokens) hcl.Diagnostics {
	var stack []int    // the operator count of each enclosing level
	ops, outer := 0, 0 // outer is the sum of stack
	afterControl := false
	for _, tok := range toks {
		open, close := false, false
		switch tok.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			open = true
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			close = true
		case hclsyntax.TokenIdent:
			// %{ if } ... %{ endif } nests the parser as brackets do.
			if afterControl {
				switch string(tok.Bytes) {
				case "if", "for":
					open = true
				case "endif", "endfor":
					close = true
				}
			}
		case hclsyntax.TokenComma, hclsyntax.TokenNewline:
			ops = 0
		case hclsyntax.TokenBang, hclsyntax.TokenMinus, hclsyntax.TokenPlus, hclsyntax.TokenStar,
			hclsyntax.TokenSlash, hclsyntax.TokenPercent, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
			hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan,
			hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenQuestion:
			ops++
		}
		afterControl = tok.Type == hclsyntax.TokenTemplateControl
		switch {
		case open:
			stack = append(stack, ops)
			outer += ops
			ops = 0
		case close && len(stack) > 0:
			ops = stack[len(stack)-1]
			outer -= ops
			stack = stack[:len(stack)-1]
		}
		if len(stack)+ops+outer > MaxNestingDepth {
			return nestingDiag(tok.Range)
		}
	}
	return nil
}

// checkJSONNesting counts arrays and objects outside strings, and checks
// the strings that hold template sequences as templates: HCL parses those
// as native syntax when it evaluates them.
func checkJSONNesting(src []byte, filename string) hcl.Diagnostics {
	depth := 0
	inString, escaped := false, false
	line, col := 1, 1
	var strStart hcl.Pos
	for i, b := range src {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
				if d := checkJSONTemplate(src[strStart.Byte:i], filename, strStart); d.HasErrors() {
					return d
				}
			}
		case b == '"':
			inString = true
			strStart = hcl.Pos{Line: line, Column: col + 1, Byte: i + 1}
		case b == '[' || b == '{':
			depth++
			if depth > MaxNestingDepth {
				start := hcl.Pos{Line: line, Column: col, Byte: i}
				end := hcl.Pos{Line: line, Column: col + 1, Byte: i + 1}
				return nestingDiag(hcl.Range{Filename: filename, Start: start, End: end})
			}
		case b == ']' || b == '}':
			depth--
		}
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return nil
}

func checkJSONTemplate(str []byte, filename string, pos hcl.Pos) hcl.Diagnostics {
	if !bytes.Contains(str, []byte("${")) && !bytes.Contains(str, []byte("%{")) {
		return nil
	}
	toks, _ := hclsyntax.LexTemplate(str, filename, pos)
	return checkTokenNesting(toks)
}
