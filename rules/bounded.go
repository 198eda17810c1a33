package rules

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// The memory watchdog (limits.go) stops an evaluation between steps, but
// some built-ins build a value far larger than their arguments in one call
// (replace of every character by a long string, json.marshal of a value
// that shares its parts, numbers.range over a wide span), too fast for it.
// In team files those calls go through a bounded copy of the built-in that
// estimates the size of the result from its arguments first and refuses
// one larger than a quarter of the memory limit. Only team files are
// rewritten: the defaults never build large values.

// boundedPrefix is where the bounded copies live: `replace(...)` in a team
// file is evaluated as `tenet.bounded.replace(...)`.
const boundedPrefix = "tenet.bounded."

// resultSize estimates, from the arguments, an upper bound of the size of
// a built-in's result (bytes of text, or about 8 per element), reading at
// most limit+1 of each argument.
type resultSize func(args []*ast.Term, limit int64) int64

// boundedBuiltins are the built-ins whose result may outgrow their
// arguments by more than a constant factor, or is sized by a number.
var boundedBuiltins = map[string]resultSize{
	"concat": func(a []*ast.Term, lim int64) int64 {
		return sat(mulSat(textLen(a[0]), elements(a[1])), termSize(a[1], lim))
	},
	"replace": func(a []*ast.Term, lim int64) int64 {
		return replaced(textLen(a[0]), textLen(a[1]), textLen(a[2]))
	},
	"strings.replace_n": func(a []*ast.Term, lim int64) int64 {
		minOld, maxNew := int64(-1), int64(0)
		if obj, ok := a[0].Value.(ast.Object); ok {
			obj.Foreach(func(k, v *ast.Term) {
				if n := textLen(k); minOld < 0 || n < minOld {
					minOld = n
				}
				maxNew = max(maxNew, textLen(v))
			})
		}
		return replaced(textLen(a[1]), max(minOld, 0), maxNew)
	},
	"regex.replace": func(a []*ast.Term, lim int64) int64 {
		// Each match becomes the replacement, whose $n expand to at most
		// the whole string.
		s, value := textLen(a[0]), textLen(a[2])
		per := sat(value, mulSat(int64(strings.Count(str(a[2]), "$")), s))
		return sat(s, mulSat(s+1, per))
	},
	"sprintf": func(a []*ast.Term, lim int64) int64 {
		// Each verb prints at most all the arguments, padded to a width
		// or precision written in the format (Go caps them at 10^6).
		format := str(a[0])
		verbs := int64(strings.Count(format, "%"))
		pad := int64(0)
		if strings.ContainsAny(format, "0123456789") {
			pad = 1_000_000
		}
		return sat(int64(len(format)), mulSat(verbs, sat(termSize(a[1], lim), pad)))
	},
	"json.marshal": func(a []*ast.Term, lim int64) int64 {
		return mulSat(termSize(a[0], lim), 6) // \u00XX escapes
	},
	"json.marshal_with_options": func(a []*ast.Term, lim int64) int64 {
		extra := int64(0)
		if obj, ok := a[1].Value.(ast.Object); ok {
			extra = sat(textLen(obj.Get(ast.StringTerm("prefix"))), mulSat(textLen(obj.Get(ast.StringTerm("indent"))), termDepth(a[0])))
		}
		return mulSat(termSize(a[0], lim), sat(6, extra))
	},
	"yaml.marshal": func(a []*ast.Term, lim int64) int64 {
		return mulSat(termSize(a[0], lim), sat(6, mulSat(2, termDepth(a[0]))))
	},
	"array.concat": func(a []*ast.Term, lim int64) int64 {
		return sat(termSize(a[0], lim), termSize(a[1], lim))
	},
	"numbers.range": func(a []*ast.Term, lim int64) int64 {
		return mulSat(span(a[0], a[1], ast.InternedTerm(1)), 8)
	},
	"numbers.range_step": func(a []*ast.Term, lim int64) int64 {
		return mulSat(span(a[0], a[1], a[2]), 8)
	},
}

// boundedDecls declares the bounded copies to the compiler; built when
// team rules first need it, not at every process start.
var boundedDecls = sync.OnceValue(func() map[string]*ast.Builtin {
	out := map[string]*ast.Builtin{}
	for name := range boundedBuiltins {
		orig := ast.BuiltinMap[name]
		out[boundedPrefix+name] = &ast.Builtin{Name: boundedPrefix + name, Decl: orig.Decl}
	}
	return out
})

// boundedFunctions implements the bounded copies: refuse a result
// estimated larger than limit bytes, else call the built-in itself.
func boundedFunctions(limit int64) []func(*rego.Rego) {
	var opts []func(*rego.Rego)
	for name, size := range boundedBuiltins {
		orig := topdown.GetBuiltin(name)
		decl := boundedDecls()[boundedPrefix+name]
		opts = append(opts, rego.FunctionDyn(&rego.Function{Name: decl.Name, Decl: decl.Decl},
			func(bctx rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
				if n := size(args, limit); n > limit {
					return nil, fmt.Errorf("would build a value of about %s, more than %s, a quarter of the memory limit for team rules (raise it with %s)",
						formatBytes(uint64(n)), formatBytes(uint64(limit)), MemoryLimitEnv)
				}
				var out *ast.Term
				err := orig(bctx, args, func(t *ast.Term) error {
					out = t
					return nil
				})
				var te *topdown.Error
				switch {
				case err == nil:
					return out, nil
				case errors.As(err, &te) && te.Code == topdown.TypeErr:
					// An operand of the wrong type is undefined, as for
					// the built-in itself (failclosed.go).
					return nil, nil
				case te != nil:
					return nil, errors.New(strings.TrimPrefix(te.Message, name+": "))
				}
				return nil, err
			}))
	}
	return opts
}

// boundCalls rewrites the calls of m to the bounded built-ins.
func boundCalls(m *ast.Module) {
	rewrite := func(op *ast.Term) {
		ref, ok := op.Value.(ast.Ref)
		if !ok {
			return
		}
		if _, bounded := boundedBuiltins[ref.String()]; bounded {
			op.Value = ast.MustParseRef(boundedPrefix + ref.String())
		}
	}
	ast.WalkExprs(m, func(x *ast.Expr) bool {
		if x.IsCall() {
			rewrite(x.Terms.([]*ast.Term)[0])
		}
		return false
	})
	ast.WalkTerms(m, func(t *ast.Term) bool {
		if call, ok := t.Value.(ast.Call); ok && len(call) > 0 {
			rewrite(call[0])
		}
		return false
	})
}

// termSize is the size of t's text and elements, counted up to limit+1
// (a value sharing its parts counts every use: that is what printing it
// writes).
func termSize(t *ast.Term, limit int64) int64 {
	var n int64
	var walk func(v ast.Value) bool
	walk = func(v ast.Value) bool {
		switch v := v.(type) {
		case ast.String:
			n += int64(len(v)) + 2
		case ast.Number:
			n += int64(len(v))
		case *ast.Array:
			for i := range v.Len() {
				n += 8
				if !walk(v.Elem(i).Value) {
					return false
				}
			}
		case ast.Set:
			_ = v.Iter(func(e *ast.Term) error {
				n += 8
				if !walk(e.Value) {
					return errStop
				}
				return nil
			})
		case ast.Object:
			_ = v.Iter(func(k, e *ast.Term) error {
				n += 8
				if !walk(k.Value) || !walk(e.Value) {
					return errStop
				}
				return nil
			})
		default:
			n += 8
		}
		return n <= limit
	}
	if t != nil {
		walk(t.Value)
	}
	return n
}

var errStop = errors.New("stop")

// termDepth is how deeply t nests, bounded.
func termDepth(t *ast.Term) int64 {
	var depth func(v ast.Value, d int64) int64
	depth = func(v ast.Value, d int64) int64 {
		if d > 64 {
			return d
		}
		best := d
		switch v := v.(type) {
		case *ast.Array:
			for i := range v.Len() {
				best = max(best, depth(v.Elem(i).Value, d+1))
			}
		case ast.Object:
			v.Foreach(func(_, e *ast.Term) { best = max(best, depth(e.Value, d+1)) })
		case ast.Set:
			v.Foreach(func(e *ast.Term) { best = max(best, depth(e.Value, d+1)) })
		}
		return best
	}
	if t == nil {
		return 0
	}
	return depth(t.Value, 0)
}

func textLen(t *ast.Term) int64 {
	if t == nil {
		return 0
	}
	if s, ok := t.Value.(ast.String); ok {
		return int64(len(s))
	}
	return 0
}

// elements is the number of elements of an array or set.
func elements(t *ast.Term) int64 {
	switch v := t.Value.(type) {
	case *ast.Array:
		return int64(v.Len())
	case ast.Set:
		return int64(v.Len())
	}
	return 0
}

// replaced bounds replacing every occurrence of a string of length old by
// one of length new in a string of length s (old 0: between every byte).
func replaced(s, old, new int64) int64 {
	if old == 0 {
		return sat(s, mulSat(s+1, new))
	}
	return sat(s, mulSat(s/old, new))
}

// span is the number of elements numbers.range_step(from, to, step) has.
func span(from, to, step *ast.Term) int64 {
	f, okF := from.Value.(ast.Number)
	t, okT := to.Value.(ast.Number)
	s, okS := step.Value.(ast.Number)
	if !okF || !okT || !okS {
		return 0
	}
	bf, bt, bs := new(big.Float), new(big.Float), new(big.Float)
	if _, ok := bf.SetString(string(f)); !ok {
		return 0
	}
	if _, ok := bt.SetString(string(t)); !ok {
		return 0
	}
	if _, ok := bs.SetString(string(s)); !ok || bs.Sign() == 0 {
		return 0
	}
	n := new(big.Float).Quo(new(big.Float).Abs(new(big.Float).Sub(bt, bf)), new(big.Float).Abs(bs))
	if n.Cmp(big.NewFloat(1<<40)) > 0 {
		return 1 << 40
	}
	i, _ := n.Int64()
	return i + 1
}

func sat(a, b int64) int64 {
	if a > (1<<62)-b {
		return 1 << 62
	}
	return a + b
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > (1<<62)/b {
		return 1 << 62
	}
	return a * b
}
