package rules

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/zclconf/go-cty/cty"
)

// FuzzPreventDestroyFailsClosed writes prevent_destroy rules from a fuzzed
// element and a fuzzed body condition (seeded with conditions that error
// at evaluation and elements of the wrong shape) and destroys the instance
// they may protect. Whenever the rule, evaluated on its own by OPA with
// strict built-in errors, errors (other than an operand of the wrong type,
// which tenet treats as a condition that does not hold) or adds any
// element, the destroy must not go through: loading fails, Decide fails,
// or the decision carries an error.
func FuzzPreventDestroyFailsClosed(f *testing.F) {
	elements := []string{`[i, "kept"]`, `"kept"`, `[inst.address, "kept"]`, `[i]`, `[i + 1, "kept"]`, `[i, 7]`}
	conditions := []string{
		`to_number("ten") > 1`,
		`x := 1 / 0`,
		`regex.match("(", inst.name)`,
		`json.unmarshal("{")`,
		`base64.decode("%")`,
		`units.parse_bytes("lots") > 0`,
		`time.parse_rfc3339_ns("yesterday") > 0`,
		`not to_number(inst.name) == 1`,
		`startswith(inst.name, "d")`,
		`inst.prior.values.size == "ten"`,
		`count(inst.prior.values) > 0`,
	}
	for _, el := range elements {
		for _, c := range conditions {
			f.Add(el, c)
		}
	}
	inst := Instance{
		Address: "db.d", Resource: "db.d", Mode: "managed", Type: "db", Name: "d", HasPrior: true,
		Prior: cty.ObjectVal(map[string]cty.Value{"size": cty.StringVal("ten")}),
	}
	run := Run{Mode: ModeDestroy, Timestamp: caseTimestamp}
	f.Fuzz(func(t *testing.T, element, condition string) {
		src := fmt.Sprintf("package tenet.decide\n\nprevent_destroy contains %s if {\n\tsome i, inst in input.instances\n\t%s\n}\n", element, condition)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e, diags := New(ctx, Options{
			Team:      []Source{{Name: ".tenet/rules", FS: fstest.MapFS{"t.rego": {Data: []byte(src)}}}},
			TimeLimit: 2 * time.Second, MemoryLimit: 256 << 20,
		})
		if diags.HasErrors() {
			return // refused when loading: nothing is planned, nothing destroyed
		}
		errs, adds := preventDestroyOnItsOwn(ctx, e, src, inst)
		got, err := e.Decide(ctx, run, []Instance{inst})
		if err != nil {
			return // the plan stops
		}
		if errs || adds {
			if got[0].Action != "delete" || len(got[0].Errors) == 0 {
				t.Fatalf("rule\n%s\nerrors (%v) or adds an element (%v), yet the destroy goes through: %+v", src, errs, adds, got[0])
			}
		}
	})
}

// preventDestroyOnItsOwn evaluates the team rule with OPA alone, with
// strict built-in errors, over the instance as Decide presents it.
func preventDestroyOnItsOwn(ctx context.Context, e *Engine, src string, inst Instance) (errs, adds bool) {
	term := e.instanceTerm(e.newValueBuilder(), &inst, true)
	input := ast.NewObject(ast.Item(keyRun, runTerm(Run{Mode: ModeDestroy, Timestamp: caseTimestamp})), ast.Item(keyInstances, ast.ArrayTerm(term)))
	rs, err := rego.New(
		rego.Query("data.tenet.decide.prevent_destroy"),
		rego.Module("t.rego", src),
		rego.ParsedInput(input),
		rego.StrictBuiltinErrors(true),
		rego.Capabilities(sandboxCapabilities()),
		rego.SetRegoVersion(ast.RegoV1),
	).Eval(ctx)
	if err != nil {
		var te *topdown.Error
		if errors.As(err, &te) && te.Code == topdown.TypeErr {
			return false, false // undecided here: tenet reads it as "does not hold"
		}
		return true, false
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return false, false
	}
	set, _ := rs[0].Expressions[0].Value.([]any)
	return false, len(set) > 0
}
