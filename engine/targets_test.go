package engine_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/providers/builtin"
	"github.com/tenetplan/tenet/state"
)

// dataRun plans and applies terraform_data configurations with the
// built-in providers, carrying state between runs like the CLI.
type dataRun struct {
	t     *testing.T
	eng   *engine.Engine
	state *state.State
}

func newDataRun(t *testing.T) *dataRun {
	t.Helper()
	return &dataRun{t: t, state: state.NewState(), eng: &engine.Engine{
		Providers:  builtin.Registry(),
		Rules:      defaultRules(t),
		WorkingDir: t.TempDir(),
		Version:    "0.0.0-test",
	}}
}

func (r *dataRun) plan(mainTF string, opts engine.PlanOpts) (*config.Config, *plan.Plan, hcl.Diagnostics) {
	r.t.Helper()
	fsys := fstest.MapFS{"main.tf": {Data: []byte(mainTF)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		return nil, nil, diags
	}
	r.eng.FS = fsys
	opts.Timestamp = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	p, moreDiags := r.eng.Plan(context.Background(), cfg, r.state, opts)
	return cfg, p, append(diags, moreDiags...)
}

// run plans and applies, failing the test on errors, and returns the plan
// and the diagnostics of both.
func (r *dataRun) run(mainTF string, opts engine.PlanOpts) (*plan.Plan, hcl.Diagnostics) {
	r.t.Helper()
	cfg, p, diags := r.plan(mainTF, opts)
	if diags.HasErrors() {
		r.t.Fatalf("plan: %s", diags.Error())
	}
	st, moreDiags := r.eng.Apply(context.Background(), cfg, p, engine.ApplyOpts{}, nil)
	if moreDiags.HasErrors() {
		r.t.Fatalf("apply: %s", moreDiags.Error())
	}
	r.state = st
	return p, append(diags, moreDiags...)
}

// actions summarises a plan as "ADDR: action (reason)" lines, no-ops included.
func actions(p *plan.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		s := c.Addr.String() + ": " + c.Action.String()
		if c.Reason != "" {
			s += " (" + string(c.Reason) + ")"
		}
		if c.Importing != nil {
			s += " importing " + c.Importing.ID
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func summaries(diags hcl.Diagnostics, sev hcl.DiagnosticSeverity) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == sev {
			out = append(out, d.Summary)
		}
	}
	return out
}

func target(t *testing.T, s string) addrs.Targetable {
	t.Helper()
	tg, diags := addrs.ParseTargetStr(s)
	if diags.HasErrors() {
		t.Fatalf("target %q: %s", s, diags.Error())
	}
	return tg.Subject
}

const chainTF = `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = terraform_data.a.output }
resource "terraform_data" "c" { input = "c" }
resource "terraform_data" "d" { input = terraform_data.b.output }
resource "terraform_data" "n" {
  count = 2
  input = count.index
}
output "b" { value = terraform_data.b.output }
output "d" { value = terraform_data.d.output }
`

func TestTargetsAndExcludes(t *testing.T) {
	tests := []struct {
		name     string
		applied  bool // state holds every resource first
		opts     func(t *testing.T) engine.PlanOpts
		want     []string
		wantOuts []string
	}{
		{
			name: "target plans the target and its dependencies, not dependents",
			opts: func(t *testing.T) engine.PlanOpts {
				return engine.PlanOpts{Targets: []addrs.Targetable{target(t, "terraform_data.b")}}
			},
			want:     []string{"terraform_data.a: Create", "terraform_data.b: Create"},
			wantOuts: []string{"b"},
		},
		{
			name: "instance target plans only that instance",
			opts: func(t *testing.T) engine.PlanOpts {
				return engine.PlanOpts{Targets: []addrs.Targetable{target(t, "terraform_data.n[1]")}}
			},
			want: []string{"terraform_data.n[1]: Create"},
		},
		{
			name: "exclude drops the node and its dependents",
			opts: func(t *testing.T) engine.PlanOpts {
				return engine.PlanOpts{Excludes: []addrs.Targetable{target(t, "terraform_data.b")}}
			},
			want: []string{"terraform_data.a: Create", "terraform_data.c: Create", "terraform_data.n[0]: Create", "terraform_data.n[1]: Create"},
		},
		{
			name:    "destroy target destroys its dependents too",
			applied: true,
			opts: func(t *testing.T) engine.PlanOpts {
				return engine.PlanOpts{Mode: plan.DestroyMode, Targets: []addrs.Targetable{target(t, "terraform_data.b")}}
			},
			want: []string{"terraform_data.b: Delete", "terraform_data.d: Delete"},
		},
		{
			name:    "destroy exclude keeps what the excluded object depends on",
			applied: true,
			opts: func(t *testing.T) engine.PlanOpts {
				return engine.PlanOpts{Mode: plan.DestroyMode, Excludes: []addrs.Targetable{target(t, "terraform_data.b"), target(t, "terraform_data.n")}}
			},
			want: []string{"terraform_data.c: Delete", "terraform_data.d: Delete"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newDataRun(t)
			if tt.applied {
				r.run(chainTF, engine.PlanOpts{})
			}
			p, diags := r.run(chainTF, tt.opts(t))
			if diff := cmp.Diff(tt.want, actions(p)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if tt.wantOuts != nil {
				var outs []string
				for _, o := range p.OutputChanges {
					outs = append(outs, o.Name)
				}
				if diff := cmp.Diff(tt.wantOuts, outs); diff != "" {
					t.Errorf("output changes (-want +got):\n%s", diff)
				}
			}
			warns := strings.Join(summaries(diags, hcl.DiagWarning), "; ")
			for _, w := range []string{"Resource targeting is in effect", "Applied changes may be incomplete"} {
				if !strings.Contains(warns, w) {
					t.Errorf("warnings %q lack %q", warns, w)
				}
			}
		})
	}
}

func TestForceReplaceOptions(t *testing.T) {
	const tf = `
resource "terraform_data" "a" {
  count = 2
  input = "x"
}
`
	r := newDataRun(t)
	r.run(tf, engine.PlanOpts{})
	noKey, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a")
	one, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a[1]")

	t.Run("an address without a key matches nothing and warns", func(t *testing.T) {
		_, p, diags := r.plan(tf, engine.PlanOpts{ForceReplace: []addrs.AbsResourceInstance{noKey}})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if diff := cmp.Diff([]string{"Incompletely-matched force-replace resource instance"}, summaries(diags, hcl.DiagWarning)); diff != "" {
			t.Errorf("warnings (-want +got):\n%s", diff)
		}
		if !strings.Contains(diags[0].Detail, `-replace="terraform_data.a[1]"`) {
			t.Errorf("detail %q does not suggest the instance addresses", diags[0].Detail)
		}
		if diff := cmp.Diff([]string{"terraform_data.a[0]: NoOp", "terraform_data.a[1]: NoOp"}, actions(p)); diff != "" {
			t.Errorf("changes (-want +got):\n%s", diff)
		}
	})
	t.Run("an instance address replaces that instance", func(t *testing.T) {
		_, p, diags := r.plan(tf, engine.PlanOpts{ForceReplace: []addrs.AbsResourceInstance{one}})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		want := []string{"terraform_data.a[0]: NoOp", "terraform_data.a[1]: DeleteThenCreate (replace_by_request)"}
		if diff := cmp.Diff(want, actions(p)); diff != "" {
			t.Errorf("changes (-want +got):\n%s", diff)
		}
	})
	t.Run("destroy mode refuses -replace", func(t *testing.T) {
		_, _, diags := r.plan(tf, engine.PlanOpts{Mode: plan.DestroyMode, ForceReplace: []addrs.AbsResourceInstance{one}})
		if diff := cmp.Diff([]string{"Unsupported plan mode"}, summaries(diags, hcl.DiagError)); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
	})
}
