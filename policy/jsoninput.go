package policy

import (
	"bytes"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// The policy input is the plan JSON as an ast.Value. OPA's own route
// (encoding/json into `any`, then ast.InterfaceToValue) builds every value
// twice on one core; inputValue builds the ast terms straight from the
// bytes, spreads large arrays over the cores, and leaves out the members
// no policy reads (see [inputShape]). Otherwise the result equals
// ast.ValueFromReader's: the same strings, numbers as ast.Number of their
// literal text, last duplicate key wins. Anything this parser does not
// handle exactly as encoding/json does (invalid JSON, very deep nesting,
// trailing data) sends the whole document down OPA's route, so errors and
// lenient cases stay OPA's. It is written by hand because it pays:
// BenchmarkInputValue in bench_test.go compares it with OPA's route.

// errSlowPath means "let ast.ValueFromReader decide".
var errSlowPath = errors.New("policy input needs the generic JSON decoder")

// inputShape says which parts of a JSON value the policy input keeps. A
// nil shape keeps the value whole. An object shape keeps only the named
// members, each with its own shape; an array shape gives every element
// the shape elems. A value of another kind than its shape expects is
// kept whole.
type inputShape struct {
	array   bool
	members map[string]*inputShape
	elems   *inputShape
}

func (sh *inputShape) forObject() bool { return sh != nil && !sh.array }
func (sh *inputShape) forArray() bool  { return sh != nil && sh.array }

// inputValue converts planJSON into the policy input, keeping what shape
// says (nil: all); the parts left out are only checked to be valid JSON.
func inputValue(planJSON []byte, shape *inputShape) (ast.Value, error) {
	v, err := fastInputValue(planJSON, shape)
	if err == nil {
		return v, nil
	}
	v, err = ast.ValueFromReader(bytes.NewReader(planJSON))
	if err != nil {
		return v, err
	}
	return pruneValue(v, shape), nil
}

// pruneValue is the shape applied to an already converted value.
func pruneValue(v ast.Value, sh *inputShape) ast.Value {
	switch {
	case sh.forObject():
		obj, ok := v.(ast.Object)
		if !ok {
			return v
		}
		out := ast.NewObject()
		obj.Foreach(func(k, val *ast.Term) {
			s, ok := k.Value.(ast.String)
			if !ok {
				return
			}
			if sub, ok := sh.members[string(s)]; ok {
				out.Insert(k, ast.NewTerm(pruneValue(val.Value, sub)))
			}
		})
		return out
	case sh.forArray():
		arr, ok := v.(*ast.Array)
		if !ok || sh.elems == nil {
			return v
		}
		elems := make([]*ast.Term, arr.Len())
		for i := range elems {
			elems[i] = ast.NewTerm(pruneValue(arr.Elem(i).Value, sh.elems))
		}
		return ast.NewArray(elems...)
	}
	return v
}

func fastInputValue(planJSON []byte, shape *inputShape) (ast.Value, error) {
	p := newJSONParser(string(planJSON), true)
	v, err := p.document(shape)
	if err != nil {
		return nil, err
	}
	return v.Value, nil
}

// Arrays at least parallelMinBytes long, not nested deeper than
// parallelDepth, are converted in chunks of about parallelChunk bytes on
// all cores. (Variables so tests can split small documents.)
var (
	parallelMinBytes = 256 << 10
	parallelChunk    = 64 << 10
)

const (
	parallelDepth = 8
	maxJSONDepth  = 10000
)

// jsonParser builds ast terms; it lexes with jsontext's Scanner over the
// document, holding its place in pos.
type jsonParser struct {
	jsontext.Scanner[string]
	pos int
	// parallel allows splitting large arrays; chunk parsers do not split
	// again.
	parallel bool
	// terms is a slab the parser hands terms out of.
	terms []ast.Term
	// stack holds the elements and members of the open arrays and objects.
	elems   []*ast.Term
	members [][2]*ast.Term
	// strs shares the terms of repeated short strings (keys above all).
	strs []cachedString
	buf  []byte
}

func newJSONParser(src string, parallel bool) *jsonParser {
	return &jsonParser{Scanner: jsontext.Scanner[string]{Src: src}, parallel: parallel, strs: make([]cachedString, 1021)}
}

func (p *jsonParser) term(v ast.Value) *ast.Term {
	if len(p.terms) == 0 {
		p.terms = make([]ast.Term, 512)
	}
	t := &p.terms[0]
	p.terms = p.terms[1:]
	t.Value = v
	return t
}

// document parses the whole source: one value and only whitespace after.
func (p *jsonParser) document(shape *inputShape) (*ast.Term, error) {
	p.skipSpace()
	t, err := p.shapedValue(0, shape)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.Src) {
		return nil, errSlowPath
	}
	return t, nil
}

func (p *jsonParser) skipSpace() { p.pos = p.Space(p.pos) }

func (p *jsonParser) value(depth int) (*ast.Term, error) {
	return p.shapedValue(depth, nil)
}

// shapedValue reads a value, keeping of it what sh says.
func (p *jsonParser) shapedValue(depth int, sh *inputShape) (*ast.Term, error) {
	if p.pos >= len(p.Src) || depth > maxJSONDepth {
		return nil, errSlowPath
	}
	switch c := p.Src[p.pos]; c {
	case '{':
		return p.object(depth, sh)
	case '[':
		return p.array(depth, sh)
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.stringTerm(s), nil
	case 't':
		return p.literal("true", ast.InternedTerm(true))
	case 'f':
		return p.literal("false", ast.InternedTerm(false))
	case 'n':
		return p.literal("null", p.term(ast.NullValue))
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
	}
	return nil, errSlowPath
}

func (p *jsonParser) literal(word string, t *ast.Term) (*ast.Term, error) {
	if end := p.Literal(p.pos, word); end >= 0 {
		p.pos = end
		return t, nil
	}
	return nil, errSlowPath
}

// number reads a JSON number; its value is the literal text, as
// ast.InterfaceToValue gives for a json.Number.
func (p *jsonParser) number() (*ast.Term, error) {
	start := p.pos
	i := p.Number(start)
	if i < 0 {
		return nil, errSlowPath
	}
	p.pos = i
	text := p.Src[start:i]
	if t := ast.InternedIntNumberTermFromString(text); t != nil {
		return t, nil
	}
	n, err := ast.NumberChecked(text)
	if err != nil {
		return nil, errSlowPath
	}
	return p.term(n), nil
}

// stringTerm shares one term between equal short strings (keys above
// all) through a small direct-mapped cache: cheaper than a map, and a
// collision only costs a term.
func (p *jsonParser) stringTerm(s string) *ast.Term {
	if len(s) == 0 || len(s) > 24 {
		return p.term(ast.String(s))
	}
	h := (uint(len(s))*31 + uint(s[0])*7 + uint(s[len(s)-1]) + uint(s[len(s)/2])*131) % uint(len(p.strs))
	if e := p.strs[h]; e.term != nil && e.s == s {
		return e.term
	}
	t := p.term(ast.String(s))
	p.strs[h] = cachedString{s, t}
	return t
}

type cachedString struct {
	s    string
	term *ast.Term
}

// str reads a JSON string at p.pos (the opening quote). Plain content is
// a slice of the source; escapes and invalid UTF-8 (which encoding/json,
// and so ValueFromReader, replaces by U+FFFD) are decoded.
func (p *jsonParser) str() (string, error) {
	s, end, buf := p.StringValue(p.pos, p.buf[:0])
	p.buf = buf
	if end < 0 {
		return "", errSlowPath
	}
	p.pos = end
	return s, nil
}

// object reads an object; an object shape drops the members it does not
// name (checking only that their values are valid JSON).
func (p *jsonParser) object(depth int, sh *inputShape) (*ast.Term, error) {
	filter := sh.forObject()
	p.pos++ // '{'
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	var index map[string]int
	p.skipSpace()
	if p.pos < len(p.Src) && p.Src[p.pos] == '}' {
		p.pos++
		return ast.InternedEmptyObject, nil
	}
	for {
		if p.pos >= len(p.Src) || p.Src[p.pos] != '"' {
			return nil, errSlowPath
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.Src) || p.Src[p.pos] != ':' {
			return nil, errSlowPath
		}
		p.pos++
		p.skipSpace()
		var sub *inputShape
		kept := true
		if filter {
			sub, kept = sh.members[k]
		}
		if !kept {
			if err := p.skipValid(); err != nil {
				return nil, err
			}
		} else {
			v, err := p.shapedValue(depth+1, sub)
			if err != nil {
				return nil, err
			}
			p.addMember(base, &index, p.stringTerm(k), v)
		}
		more, err := p.next('}')
		if err != nil {
			return nil, err
		}
		if !more {
			return p.term(ast.NewObject(p.members[base:]...)), nil
		}
	}
}

// next steps over the comma or the closing bracket after a member or
// element, and the space around them; more says it was a comma.
func (p *jsonParser) next(closing byte) (more bool, err error) {
	next, more := p.Next(p.pos, closing)
	if next < 0 {
		return false, errSlowPath
	}
	p.pos = next
	return more, nil
}

// addMember appends a member, replacing an earlier one of the same key
// as encoding/json does. Objects with many members index their keys.
func (p *jsonParser) addMember(base int, index *map[string]int, k, v *ast.Term) {
	open := p.members[base:]
	key := string(k.Value.(ast.String))
	if *index == nil && len(open) < 32 {
		for i := range open {
			if open[i][0] == k || string(open[i][0].Value.(ast.String)) == key {
				open[i][1] = v
				return
			}
		}
		p.members = append(p.members, [2]*ast.Term{k, v})
		return
	}
	if *index == nil {
		*index = make(map[string]int, 2*len(open))
		for i, m := range open {
			(*index)[string(m[0].Value.(ast.String))] = i
		}
	}
	if i, ok := (*index)[key]; ok {
		open[i][1] = v
		return
	}
	(*index)[key] = len(open)
	p.members = append(p.members, [2]*ast.Term{k, v})
}

func (p *jsonParser) array(depth int, sh *inputShape) (*ast.Term, error) {
	var elemShape *inputShape
	if sh.forArray() {
		elemShape = sh.elems
	}
	if p.parallel && depth <= parallelDepth && len(p.Src)-p.pos >= parallelMinBytes {
		if t, ok, err := p.parallelArray(depth, elemShape); ok || err != nil {
			return t, err
		}
	}
	p.pos++ // '['
	base := len(p.elems)
	defer func() { p.elems = p.elems[:base] }()
	p.skipSpace()
	if p.pos < len(p.Src) && p.Src[p.pos] == ']' {
		p.pos++
		return ast.InternedEmptyArray, nil
	}
	for {
		v, err := p.shapedValue(depth+1, elemShape)
		if err != nil {
			return nil, err
		}
		p.elems = append(p.elems, v)
		more, err := p.next(']')
		if err != nil {
			return nil, err
		}
		if !more {
			elems := make([]*ast.Term, len(p.elems)-base)
			copy(elems, p.elems[base:])
			return p.term(ast.NewArray(elems...)), nil
		}
	}
}

// skipValid steps over one value, which must be valid JSON. Values nested
// deeper than jsontext.MaxDepth go to OPA's route.
func (p *jsonParser) skipValid() error {
	end := p.Value(p.pos, 0)
	if end < 0 {
		return errSlowPath
	}
	p.pos = end
	return nil
}

// parallelArray converts a large array at p.pos on all cores: it finds
// the element boundaries, gives chunks of elements to chunk parsers and
// joins their terms in order. ok is false when the array is small or
// could not be split; the caller then parses it the plain way.
func (p *jsonParser) parallelArray(depth int, elemShape *inputShape) (*ast.Term, bool, error) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 {
		return nil, false, nil
	}
	starts, end, ok := p.elementStarts(p.pos)
	if !ok || end-p.pos < parallelMinBytes || len(starts) < 2 {
		return nil, false, nil
	}
	// Chunks are runs of whole elements of about parallelChunk bytes.
	type chunk struct{ first, last int }
	var chunks []chunk
	first := 0
	for i := 1; i <= len(starts); i++ {
		next := end
		if i < len(starts) {
			next = starts[i]
		}
		if next-starts[first] >= parallelChunk || i == len(starts) {
			chunks = append(chunks, chunk{first, i})
			first = i
		}
	}
	elems := make([]*ast.Term, len(starts))
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(chunks)) {
		wg.Go(func() {
			cp := newJSONParser(p.Src, false)
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(chunks) {
					return
				}
				c := chunks[i]
				for e := c.first; e < c.last; e++ {
					cp.pos = starts[e]
					t, err := cp.shapedValue(depth+1, elemShape)
					if err != nil {
						failed.Store(true)
						return
					}
					// The element must end where the split said: its
					// separator leads to the next element (or past the
					// closing bracket).
					want := end
					if e+1 < len(starts) {
						want = starts[e+1]
					}
					if after, _ := cp.Next(cp.pos, ']'); after != want {
						failed.Store(true)
						return
					}
					elems[e] = t
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil, false, errSlowPath
	}
	p.pos = end
	return p.term(ast.NewArray(elems...)), true, nil
}

// elementStarts lists where each element of the array opening at i
// begins, and where the array ends. It only matches brackets and skips
// strings (jsontext.ValueEnd); the chunk parsers validate.
func (p *jsonParser) elementStarts(i int) ([]int, int, bool) {
	var starts []int
	i = p.Space(i + 1) // after '['
	if i < len(p.Src) && p.Src[i] == ']' {
		return nil, i + 1, true
	}
	for {
		starts = append(starts, i)
		next, more := p.Next(jsontext.ValueEnd(p.Src, i), ']')
		switch {
		case next < 0:
			return nil, 0, false
		case !more:
			return starts, next, true
		}
		i = next
	}
}
