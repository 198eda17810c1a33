package rules

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"gopkg.in/yaml.v3"
)

// A case file under testdata/cases/<topic>/ describes one behaviour: a list of
// cases, each an instance (or a resource graph) and the decision wanted.
type caseFile struct {
	Cases []decisionCase `yaml:"cases"`
}

type decisionCase struct {
	Note     string            `yaml:"note"`
	Team     map[string]string `yaml:"team"` // team rule files by name
	Run      caseRun           `yaml:"run"`
	Instance *caseInstance     `yaml:"instance"`
	Graph    []caseResource    `yaml:"graph"`
	Want     caseWant          `yaml:"want"`
}

type caseRun struct {
	Mode string `yaml:"mode"`
}

// caseInstance mirrors Instance with the field names rules see in input.
type caseInstance struct {
	Address            string  `yaml:"address"`
	Resource           string  `yaml:"resource"`
	Module             string  `yaml:"module"`
	Mode               string  `yaml:"mode"`
	Key                any     `yaml:"key"`
	Deposed            string  `yaml:"deposed"`
	HasConfig          bool    `yaml:"has_config"`
	Config             any     `yaml:"config"`
	ConfigKnown        bool    `yaml:"config_known"`
	HasPrior           bool    `yaml:"has_prior"`
	Prior              any     `yaml:"prior"`
	Tainted            bool    `yaml:"tainted"`
	PlannedEqualsPrior bool    `yaml:"planned_equals_prior"`
	RequiresReplace    [][]any `yaml:"requires_replace"`
	Lifecycle          struct {
		CreateBeforeDestroy bool `yaml:"create_before_destroy"`
		PreventDestroy      bool `yaml:"prevent_destroy"`
	} `yaml:"lifecycle"`
	ForceReplace      bool `yaml:"force_replace"`
	Triggered         bool `yaml:"triggered"`
	DependencyPending bool `yaml:"dependency_pending"`
	InCheck           bool `yaml:"in_check"`
	Orphan            struct {
		ResourceInConfig bool   `yaml:"resource_in_config"`
		Moved            bool   `yaml:"moved"`
		ModuleDeclared   bool   `yaml:"module_declared"`
		Repetition       string `yaml:"repetition"`
		InExpansion      bool   `yaml:"in_expansion"`
	} `yaml:"orphan"`
	Removed *struct {
		Destroy bool `yaml:"destroy"`
	} `yaml:"removed"`
}

type caseResource struct {
	Address             string   `yaml:"address"`
	CreateBeforeDestroy bool     `yaml:"create_before_destroy"`
	DependsOn           []string `yaml:"depends_on"`
}

type caseWant struct {
	Action string        `yaml:"action"`
	Reason string        `yaml:"reason"`
	Rules  []string      `yaml:"rules"`
	Errors []caseFinding `yaml:"errors"`
	// Forced is the wanted result of ForcedCreateBeforeDestroy: address -> rule id.
	Forced map[string]string `yaml:"forced"`
}

type caseFinding struct {
	Rule    string `yaml:"rule"`
	Summary string `yaml:"summary"`
	// Detail lists substrings the detail must contain.
	Detail []string `yaml:"detail"`
}

type loadedCase struct {
	name string
	decisionCase
}

func loadCases(t *testing.T) []loadedCase {
	t.Helper()
	var out []loadedCase
	root := filepath.Join("testdata", "cases")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var f caseFile
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(root, p)
		for i, c := range f.Cases {
			name := strings.TrimSuffix(rel, ".yaml")
			if len(f.Cases) > 1 {
				name += "/" + strings.ReplaceAll(c.Note, " ", "_")
				if c.Note == "" {
					t.Fatalf("%s: case %d needs a note", p, i)
				}
			}
			out = append(out, loadedCase{name: name, decisionCase: c})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no cases found")
	}
	return out
}

func (c *caseInstance) instance(t *testing.T) Instance {
	t.Helper()
	in := Instance{
		Address:            c.Address,
		Resource:           c.Resource,
		Module:             c.Module,
		Mode:               c.Mode,
		Type:               "terraform_data",
		Name:               "a",
		Key:                c.Key,
		Deposed:            c.Deposed,
		HasConfig:          c.HasConfig,
		ConfigKnown:        c.ConfigKnown,
		HasPrior:           c.HasPrior,
		Tainted:            c.Tainted,
		PlannedEqualsPrior: c.PlannedEqualsPrior,
		RequiresReplace:    stepPaths(c.RequiresReplace...),
		Lifecycle:          Lifecycle{CreateBeforeDestroy: c.Lifecycle.CreateBeforeDestroy, PreventDestroy: c.Lifecycle.PreventDestroy},
		ForceReplace:       c.ForceReplace,
		Triggered:          c.Triggered,
		DependencyPending:  c.DependencyPending,
		InCheck:            c.InCheck,
		Orphan: Orphan{
			ResourceInConfig: c.Orphan.ResourceInConfig,
			Moved:            c.Orphan.Moved,
			ModuleDeclared:   c.Orphan.ModuleDeclared,
			Repetition:       c.Orphan.Repetition,
			InExpansion:      c.Orphan.InExpansion,
		},
		Config: cty.NilVal,
		Prior:  cty.NullVal(cty.DynamicPseudoType),
	}
	if in.Address == "" {
		in.Address = "terraform_data.a"
	}
	if in.Resource == "" {
		in.Resource = in.Address
	}
	if in.Mode == "" {
		in.Mode = "managed"
	}
	if in.Orphan.Repetition == "" {
		in.Orphan.Repetition = "none"
	}
	if c.Removed != nil {
		in.Removed = &Removed{Destroy: c.Removed.Destroy}
	}
	if c.Config != nil {
		in.Config = yamlValue(t, c.Config)
	}
	if c.Prior != nil {
		in.Prior = yamlValue(t, c.Prior)
	}
	return in
}

// yamlValue converts a YAML value to cty with its implied type.
func yamlValue(t *testing.T, v any) cty.Value {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	ty, err := ctyjson.ImpliedType(b)
	if err != nil {
		t.Fatal(err)
	}
	val, err := ctyjson.Unmarshal(b, ty)
	if err != nil {
		t.Fatal(err)
	}
	return val
}

func newTestEngine(t testing.TB, team map[string]string) *Engine {
	t.Helper()
	var opts Options
	if len(team) > 0 {
		fsys := fstest.MapFS{}
		for name, src := range team {
			fsys[name] = &fstest.MapFile{Data: []byte(src)}
		}
		opts.Team = []Source{{Name: ".tenet/rules", FS: fsys}}
	}
	e, diags := New(context.Background(), opts)
	if diags.HasErrors() {
		t.Fatalf("New: %s", diags.Error())
	}
	if err := e.Wait(context.Background()); err != nil { // tests read internals
		t.Fatal(err)
	}
	return e
}

var caseTimestamp = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// TestDecisionCases runs every case through the evaluator and, for the
// default rules, through the reference evaluator without shortcuts.
func TestDecisionCases(t *testing.T) {
	defaults, reference := newTestEngine(t, nil), newReferenceEngine(t, nil)
	for _, c := range loadCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			engines := []*Engine{defaults, reference}
			if len(c.Team) > 0 {
				engines = []*Engine{newTestEngine(t, c.Team)}
			}
			for _, e := range engines {
				switch {
				case c.Instance != nil:
					checkDecision(t, e, c.decisionCase)
				case c.Graph != nil:
					checkForced(t, e, c.decisionCase)
				default:
					t.Fatal("case has neither instance nor graph")
				}
			}
		})
	}
}

func runOf(c decisionCase) Run {
	mode := c.Run.Mode
	if mode == "" {
		mode = ModeNormal
	}
	return Run{Mode: mode, Timestamp: caseTimestamp}
}

func checkDecision(t *testing.T, e *Engine, c decisionCase) {
	t.Helper()
	got, err := e.Decide(context.Background(), runOf(c), []Instance{c.Instance.instance(t)})
	if err != nil {
		t.Fatal(err)
	}
	d := got[0]
	if diff := cmp.Diff(summarize(c.Want), summarizeDecision(d, c.Want)); diff != "" {
		t.Errorf("decision (-want +got):\n%s", diff)
	}
	for _, f := range d.Provenance {
		if f.File == "" || f.Line == 0 {
			t.Errorf("rule %s has no file:line", f.RuleID)
		}
	}
}

type decisionSummary struct {
	Action, Reason string
	Rules          []string
	Errors         []string
}

func summarize(w caseWant) decisionSummary {
	s := decisionSummary{Action: w.Action, Reason: w.Reason, Rules: w.Rules}
	for _, f := range w.Errors {
		s.Errors = append(s.Errors, f.Rule+": "+f.Summary)
	}
	return s
}

// summarizeDecision keeps what a case checks; detail substrings that are
// missing are reported as part of the error entry.
func summarizeDecision(d Decision, w caseWant) decisionSummary {
	s := decisionSummary{Action: d.Action, Reason: d.Reason}
	for _, f := range d.Provenance {
		s.Rules = append(s.Rules, f.RuleID)
	}
	for i, f := range d.Errors {
		entry := f.RuleID + ": " + f.Summary
		if i < len(w.Errors) {
			for _, sub := range w.Errors[i].Detail {
				if !strings.Contains(f.Detail, sub) {
					entry += " (detail lacks " + sub + ": " + f.Detail + ")"
				}
			}
		}
		s.Errors = append(s.Errors, entry)
	}
	return s
}

func checkForced(t *testing.T, e *Engine, c decisionCase) {
	t.Helper()
	g := ResourceGraph{}
	for _, r := range c.Graph {
		g.Resources = append(g.Resources, GraphResource(r))
	}
	forced, err := e.ForcedCreateBeforeDestroy(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for addr, f := range forced {
		got[addr] = f.RuleID
		if f.File == "" || f.Line == 0 {
			t.Errorf("%s: rule %s has no file:line", addr, f.RuleID)
		}
	}
	want := c.Want.Forced
	if want == nil {
		want = map[string]string{}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forced create_before_destroy (-want +got):\n%s", diff)
	}
}

// TestDecideBatchOrder runs every default-rule instance case in one large
// batch per mode (so it is chunked and evaluated in parallel) and checks that
// each decision matches the one made alone, in order.
func TestDecideBatchOrder(t *testing.T) {
	e := newTestEngine(t, nil)
	byMode := map[string][]loadedCase{}
	for _, c := range loadCases(t) {
		if c.Instance != nil && len(c.Team) == 0 {
			mode := runOf(c.decisionCase).Mode
			byMode[mode] = append(byMode[mode], c)
		}
	}
	modes := make([]string, 0, len(byMode))
	for m := range byMode {
		modes = append(modes, m)
	}
	sort.Strings(modes)
	for _, mode := range modes {
		cases := byMode[mode]
		t.Run(mode, func(t *testing.T) {
			var batch []Instance
			var want []string
			for len(batch) < 3*maxChunk+7 {
				for _, c := range cases {
					batch = append(batch, c.Instance.instance(t))
					want = append(want, c.Want.Action+"/"+c.Want.Reason)
				}
			}
			got, err := e.Decide(context.Background(), Run{Mode: mode, Timestamp: caseTimestamp}, batch)
			if err != nil {
				t.Fatal(err)
			}
			gotS := make([]string, len(got))
			for i, d := range got {
				gotS[i] = d.Action + "/" + d.Reason
			}
			if diff := cmp.Diff(want, gotS); diff != "" {
				t.Errorf("batch decisions (-want +got):\n%s", diff)
			}
		})
	}
}
