package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Check evaluates every policy over planJSON (a plan in the JSON format
// of `show -json`, from tenet, OpenTofu or Terraform). Policies run side
// by side on the cores within the set's time limit, and are reported in
// the set's order; a policy that errors or runs out of time gets
// StatusError with the place of the failure. Members of the JSON no
// policy can read ([Set.ReadsInput], [Set.ReadsChangeMember]) are only
// checked to be valid. The error return is for input that is not a JSON
// object.
func (s *Set) Check(ctx context.Context, planJSON []byte) (*Report, error) {
	return s.check(ctx, planJSON, s.input.shape)
}

// check converts what shape keeps of planJSON (nil: all) and evaluates.
func (s *Set) check(ctx context.Context, planJSON []byte, shape *inputShape) (*Report, error) {
	input, err := inputValue(planJSON, shape)
	if err != nil {
		return nil, fmt.Errorf("the plan is not valid JSON: %w", err)
	}
	if _, ok := input.(ast.Object); !ok {
		return nil, errors.New("the plan JSON is not an object; give the output of \"show -json\" for a plan")
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	// Change-local policies are first evaluated over one change of each
	// kind (local.go): if that passes, so does every change.
	var kinds ast.Value
	if !s.evalAll && slices.ContainsFunc(s.policies, func(p compiledPolicy) bool { return p.local || p.relaxed != nil }) {
		if reps := changeRepresentatives(input); reps != nil {
			kinds = ast.NewObject(ast.Item(keyResourceChanges, ast.ArrayTerm(reps...)))
		}
	}
	r := &Report{FormatVersion: ReportFormatVersion, Results: make([]Result, len(s.policies))}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(s.policies)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(s.policies) {
					return
				}
				p := s.policies[i]
				if kinds != nil && p.local {
					if res := s.evalPolicy(ctx, p, kinds); res.Status == StatusPass && len(res.Messages) == 0 {
						r.Results[i] = res
						continue
					}
				}
				if kinds != nil && p.relaxed != nil {
					if rs, err := p.relaxed.Eval(ctx, rego.EvalParsedInput(kinds)); err == nil && len(rs) == 0 {
						r.Results[i] = Result{Policy: p.Policy, Status: StatusPass}
						continue
					}
				}
				r.Results[i] = s.evalPolicy(ctx, p, input)
			}
		})
	}
	wg.Wait()
	redactReport(r, input)
	r.summarize()
	return r, nil
}

func (s *Set) evalPolicy(ctx context.Context, p compiledPolicy, input ast.Value) Result {
	res := Result{Policy: p.Policy, Status: StatusPass}
	if ctx.Err() != nil {
		res.Status = StatusError
		res.Error = &Problem{Message: fmt.Sprintf("not evaluated: the policy check ran out of its time limit (%s)", s.timeout), File: p.File, Line: p.Line}
		return res
	}
	if p.whole != nil {
		if _, err := p.whole.Eval(ctx, rego.EvalParsedInput(input)); err != nil {
			res.Status = StatusError
			res.Error = evalProblem(ctx, p.Policy, err, s.timeout)
			return res
		}
	}
	rs, err := p.query.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		res.Status = StatusError
		res.Error = evalProblem(ctx, p.Policy, err, s.timeout)
		return res
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return res
	}
	msgs, err := decodeMessages(p.Policy, rs[0].Expressions[0].Value)
	if err != nil {
		res.Status = StatusError
		res.Error = &Problem{Message: err.Error(), File: p.File, Line: p.Line}
		return res
	}
	if len(msgs) == 0 {
		return res
	}
	res.Messages = msgs
	if p.Level.Mandatory() {
		res.Status = StatusFail
	} else {
		res.Status = StatusWarn
	}
	return res
}

// evalProblem places an evaluation error: at the failing expression when
// OPA knows it, else at the policy rule.
func evalProblem(ctx context.Context, p Policy, err error, limit fmt.Stringer) *Problem {
	prob := &Problem{Message: err.Error(), File: p.File, Line: p.Line}
	if ctx.Err() != nil {
		prob.Message = fmt.Sprintf("evaluation did not finish within the time limit (%s)", limit)
		return prob
	}
	var te *topdown.Error
	if errors.As(err, &te) {
		prob.Message = te.Message
		if te.Code != "" {
			prob.Message = te.Code + ": " + te.Message
		}
		if te.Location != nil && te.Location.File != "" {
			prob.File, prob.Line, prob.Column = te.Location.File, te.Location.Row, te.Location.Col
		}
	}
	return prob
}

// decodeMessages turns a rule's value into messages: a set or array of
// strings or of objects with "msg" (conftest style), or a single string,
// object or true.
func decodeMessages(p Policy, v any) ([]Message, error) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case bool:
		if !x {
			return nil, nil
		}
		text := p.Description
		if text == "" {
			text = p.Name + " failed"
		}
		return []Message{{Msg: text}}, nil
	case nil:
		return nil, nil
	default:
		items = []any{x}
	}
	out := make([]Message, 0, len(items))
	for _, it := range items {
		m, err := decodeMessage(it)
		if err != nil {
			return nil, fmt.Errorf("%s produced %s; policy results must be strings or objects with a \"msg\" string", p.Rule, err)
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Msg < out[j].Msg })
	return out, nil
}

func decodeMessage(v any) (Message, error) {
	switch x := v.(type) {
	case string:
		return Message{Msg: x}, nil
	case map[string]any:
		var m Message
		msg, ok := x["msg"].(string)
		if !ok {
			return m, fmt.Errorf("an object without a \"msg\" string (%s)", compactJSON(x))
		}
		m.Msg = msg
		for k, val := range x {
			switch k {
			case "msg":
			case "address":
				if s, ok := val.(string); ok {
					m.Addresses = append(m.Addresses, s)
					continue
				}
				addDetail(&m, k, val)
			case "addresses":
				list, ok := val.([]any)
				if !ok {
					addDetail(&m, k, val)
					continue
				}
				for _, a := range list {
					if s, ok := a.(string); ok {
						m.Addresses = append(m.Addresses, s)
					}
				}
			default:
				addDetail(&m, k, val)
			}
		}
		sort.Strings(m.Addresses)
		return m, nil
	}
	return Message{}, fmt.Errorf("the value %s", compactJSON(v))
}

func addDetail(m *Message, k string, v any) {
	if m.Details == nil {
		m.Details = map[string]any{}
	}
	m.Details[k] = v
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}
