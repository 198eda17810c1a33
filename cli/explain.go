package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/internal/provenance"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/planfile"
)

// Explanations show, for a resource instance, the action the rules chose,
// the reason, which rules fired (id, file:line, title, team message) and the
// facts they decided on. They come from the plan (Provenance and Facts), so
// a saved plan explains itself later.

func newExplainCommand(g *globals) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "explain [options] ADDR [PLANFILE]",
		Short: "Explain why the plan does what it does to a resource instance",
		Long: `Explain shows, for each instance ADDR names (an instance, or a resource for
all of its instances), the planned action, its reason, the planning rules that
fired with their file and line, and the facts the rules decided on.

With PLANFILE, the explanation comes from that saved plan. Without it, tenet
plans now, taking the same options as "tenet plan" (-var, -rules, -replace,
-destroy, ...), and shows nothing but the explanation and any diagnostics.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.command = cmd.Name()
			u := newUI(cmd, g, f.noColor, false)
			match, err := changeMatcher(args[0])
			if err != nil {
				return u.errorf("Invalid address", "%s", err)
			}
			var p *plan.Plan
			if len(args) == 2 {
				if p, err = planfile.ReadFile(args[1]); err != nil {
					return u.errorf("Failed to read the plan file", "%s", err)
				}
			} else {
				var diags hcl.Diagnostics
				p, diags, err = planQuietly(cmd.Context(), g, u, f)
				if err != nil {
					return err
				}
				u.diagnostics(diags)
			}
			var shown []*plan.ResourceInstanceChange
			for _, c := range p.Changes {
				if match(c) {
					shown = append(shown, c)
				}
			}
			if len(shown) == 0 {
				return u.errorf("Nothing to explain", "The plan has no change for %s: it is not in the configuration or the state, or it is a data source read during planning. Check the address with \"tenet state list\".", args[0])
			}
			if f.json {
				return writeExplanationsJSON(u.out, p, shown)
			}
			writeExplanations(u.out, p, shown)
			return nil
		},
	}
	f.register(cmd, true)
	return cmd
}

// changeMatcher selects the changes an ADDR argument names: an instance
// (and its deposed objects), or every instance of a resource.
func changeMatcher(s string) (func(*plan.ResourceInstanceChange) bool, error) {
	t, diags := addrs.ParseTargetStr(s)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%q is not a resource or resource instance address", s)
	}
	switch sub := t.Subject.(type) {
	case addrs.AbsResourceInstance:
		want := sub.String()
		return func(c *plan.ResourceInstanceChange) bool { return c.Addr.String() == want }, nil
	case addrs.AbsResource:
		want := sub.String()
		return func(c *plan.ResourceInstanceChange) bool { return c.Addr.ContainingResource().String() == want }, nil
	}
	return nil, fmt.Errorf("%q is not a resource or resource instance address", s)
}

// planQuietly plans as "tenet plan" does, without showing the plan.
func planQuietly(ctx context.Context, g *globals, u *ui, f *planFlags) (*plan.Plan, hcl.Diagnostics, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	args, err := f.checkArgs(u)
	if err != nil {
		return nil, nil, err
	}
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return nil, nil, u.fail(diags)
	}
	vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, f.vars, g.deps.Env)
	diags = append(diags, d...)
	opts := f.planOpts(args, vals)
	if diags.HasErrors() {
		return nil, nil, u.fail(diags)
	}
	r, d := rulesEngine(ctx, f.rules)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, nil, u.fail(diags)
	}
	_, prev, release, err := f.state.openState(ctx, u, "explain")
	if err != nil {
		return nil, nil, err
	}
	defer release()
	p, d := newEngine(g, r, nil).Plan(ctx, cfg, prev, opts)
	diags = append(diags, d...)
	if p == nil {
		return nil, nil, u.fail(diags)
	}
	return p, diags, nil
}

// showExplanations is `tenet plan -explain`: every change that does
// something (no-ops are left out; explain ADDR shows them).
func showExplanations(u *ui, p *plan.Plan) {
	var shown []*plan.ResourceInstanceChange
	for _, c := range p.Changes {
		if c.Action != action.NoOp {
			shown = append(shown, c)
		}
	}
	if len(shown) == 0 || u.json != nil {
		return
	}
	fmt.Fprintf(u.out, "\nExplanation of the planned changes:\n\n")
	writeExplanations(u.out, p, shown)
}

// keyFacts are always shown, true or false; other facts only when set.
var keyFacts = []string{"has_config", "has_prior", "tainted", "planned_equals_prior", "requires_replace", "force_replace", "triggered"}

func writeExplanations(w io.Writer, p *plan.Plan, changes []*plan.ResourceInstanceChange) {
	for i, c := range changes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		key := c.ChangeKey()
		fmt.Fprintf(w, "%s\n", key)
		if !c.PrevRunAddr.Equal(c.Addr) {
			fmt.Fprintf(w, "  moved from: %s\n", c.PrevRunAddr)
		}
		fmt.Fprintf(w, "  action: %s\n", c.Action.RuleName())
		reason := string(c.Reason)
		if reason == "" {
			reason = "(none)"
		}
		fmt.Fprintf(w, "  reason: %s\n", reason)
		fmt.Fprintf(w, "  rules:\n")
		fired := p.Provenance[key]
		if len(fired) == 0 {
			fmt.Fprintf(w, "    (not recorded)\n")
		}
		for _, r := range fired {
			where := ""
			if r.File != "" {
				where = fmt.Sprintf(" at %s:%d", r.File, r.Line)
			}
			fmt.Fprintf(w, "    - %s%s\n", r.RuleID, where)
			if r.Title != "" {
				fmt.Fprintf(w, "      %s\n", r.Title)
			}
			if r.Message != "" {
				fmt.Fprintf(w, "      message: %s\n", r.Message)
			}
		}
		facts := factsMap(p.Facts[key])
		if facts == nil {
			continue
		}
		fmt.Fprintf(w, "  facts:\n")
		for _, k := range keyFacts {
			v := factString(facts[k])
			if k == "requires_replace" && facts[k] == nil {
				v = "[]"
			}
			fmt.Fprintf(w, "    %s: %s\n", k, v)
			delete(facts, k)
		}
		delete(facts, "mode")
		rest := make([]string, 0, len(facts))
		for k := range facts {
			rest = append(rest, k)
		}
		sort.Strings(rest)
		for _, k := range rest {
			fmt.Fprintf(w, "    %s: %s\n", k, factString(facts[k]))
		}
	}
}

// factsMap turns the facts into name -> value, by their JSON names.
func factsMap(f *plan.DecisionFacts) map[string]any {
	if f == nil {
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

func factString(v any) string {
	switch v := v.(type) {
	case nil:
		return "false"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = fmt.Sprint(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%v", k, v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// explanationJSON is one instance in `tenet explain -json`.
type explanationJSON struct {
	Address     string              `json:"address"`
	PrevAddress string              `json:"previous_address,omitempty"`
	Deposed     string              `json:"deposed,omitempty"`
	Action      string              `json:"action"`
	Reason      string              `json:"reason,omitempty"`
	Rules       []provenance.Rule   `json:"rules"`
	Facts       *plan.DecisionFacts `json:"facts,omitempty"`
}

func writeExplanationsJSON(w io.Writer, p *plan.Plan, changes []*plan.ResourceInstanceChange) error {
	out := make([]explanationJSON, 0, len(changes))
	for _, c := range changes {
		e := explanationJSON{
			Address: c.Addr.String(), Deposed: string(c.DeposedKey), Action: c.Action.RuleName(), Reason: string(c.Reason),
			Rules: p.Provenance[c.ChangeKey()], Facts: p.Facts[c.ChangeKey()],
		}
		if !c.PrevRunAddr.Equal(c.Addr) {
			e.PrevAddress = c.PrevRunAddr.String()
		}
		if e.Rules == nil {
			e.Rules = []provenance.Rule{}
		}
		out = append(out, e)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"explanations": out})
}
