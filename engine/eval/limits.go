package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config"
)

// MaxInstances bounds the instances one count or for_each makes in one
// module instance. Every instance costs memory and a provider call, so a
// count of 100000000000 would exhaust memory long before it planned;
// refusing it at the argument is the useful answer.
const MaxInstances = 1_000_000

func tooManyInstances(rng *hcl.Range, arg string, n string) *hcl.Diagnostic {
	return Errorf(rng, fmt.Sprintf("Invalid %s argument", arg),
		"The given %q argument asks for %s instances, more than the %d tenet plans for one resource or module in one module instance. Use a smaller value, or split the objects over several resources.", arg, n, MaxInstances)
}

// TooManyInstancesInAll reports an expansion that stays under the bound
// in each module instance but not over all of them.
func TooManyInstancesInAll(rng *hcl.Range, arg string) *hcl.Diagnostic {
	return Errorf(rng, fmt.Sprintf("Invalid %s argument", arg),
		"Over all the instances of its module, this %q argument asks for more than %d instances, the most tenet plans for one resource or module call. Use smaller values here or in the count and for_each of the enclosing module calls.", arg, MaxInstances)
}

// RepetitionRange is where a count or for_each argument is written.
func RepetitionRange(count, forEach hcl.Expression) *hcl.Range {
	if count != nil {
		return count.Range().Ptr()
	}
	if forEach != nil {
		return forEach.Range().Ptr()
	}
	return nil
}

// maxValueDepth bounds how deeply a value stored in the plan or state may
// nest. Syntax is bounded by config.MaxNestingDepth, but values combine
// (a local wrapping another, jsondecode of a file) and a plan holding a
// value nested thousands deep cannot be written or read as JSON.
const maxValueDepth = 2 * config.MaxNestingDepth

// CheckValueDepth reports a value nested more deeply than maxValueDepth,
// at rng, which names what produced it.
func CheckValueDepth(v cty.Value, rng *hcl.Range, what string) hcl.Diagnostics {
	if v == cty.NilVal || typeDepth(v.Type(), 0) <= maxValueDepth {
		return nil
	}
	return hcl.Diagnostics{Errorf(rng, "Value nested too deeply",
		"%s nests more than %d levels deep, which is the most tenet can keep in a plan or state. Flatten the structure.", what, maxValueDepth)}
}

// typeDepth is how deeply values of ty nest, counted up to one past the
// limit: a value's type spells out its whole structure, so the type alone
// answers without walking the elements.
func typeDepth(ty cty.Type, d int) int {
	if d > maxValueDepth {
		return d
	}
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		return typeDepth(ty.ElementType(), d+1)
	case ty.IsObjectType():
		deepest := d + 1
		for _, at := range ty.AttributeTypes() {
			deepest = max(deepest, typeDepth(at, d+1))
		}
		return deepest
	case ty.IsTupleType():
		deepest := d + 1
		for _, et := range ty.TupleElementTypes() {
			deepest = max(deepest, typeDepth(et, d+1))
		}
		return deepest
	}
	return d
}
