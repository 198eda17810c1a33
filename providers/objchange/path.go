package objchange

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// errList collects the problems a walk finds. Each is recorded relative
// to the value being checked; callers put their own step in front as the
// walk unwinds. So nothing is spent on paths unless there is an error,
// and the walks need not thread a path (whose frames escape analysis
// would move to the heap) through their recursion.
type errList []walkErr

type walkErr struct {
	rev cty.Path // steps from the error outwards
	err error
}

func (l *errList) add(format string, args ...any) {
	*l = append(*l, walkErr{err: fmt.Errorf(format, args...)})
}

// underAttr puts .name in front of the errors recorded since from.
func (l *errList) underAttr(from int, name string) {
	if len(*l) > from {
		l.under(from, cty.GetAttrStep{Name: name})
	}
}

// underIndex puts [key] in front of the errors recorded since from.
func (l *errList) underIndex(from int, key cty.Value) {
	if len(*l) > from {
		l.under(from, cty.IndexStep{Key: key})
	}
}

func (l *errList) under(from int, step cty.PathStep) {
	for i := from; i < len(*l); i++ {
		(*l)[i].rev = append((*l)[i].rev, step)
	}
}

// errors turns the list into cty.PathErrors, as Path.NewErrorf makes them.
func (l errList) errors() []error {
	if len(l) == 0 {
		return nil
	}
	out := make([]error, len(l))
	for i, e := range l {
		path := make(cty.Path, len(e.rev))
		for j, step := range e.rev {
			path[len(path)-1-j] = step
		}
		out[i] = path.NewError(e.err)
	}
	return out
}
