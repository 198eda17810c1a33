package rules

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/internal/regokit"
)

// The default rules, and the evaluator's own rules that read them
// (evaluator/, not part of the rules contract).
//
//go:embed planning/*.rego evaluator/*.rego
var defaultRules embed.FS

// defaultDir is how default rule files are named in provenance and
// diagnostics: their path inside the module.
const defaultDir = "rules"

// Packages team rules may extend, and the extension points of each.
var extensionPoints = map[string][]string{
	"data.tenet.decide":  {"force_replace", "prevent_destroy"},
	"data.tenet.cbd":     {"force_create_before_destroy"},
	"data.tenet.prepare": {"ignore_paths", "equivalent"},
	"data.tenet.moves":   {"moves"},
}

// Engine evaluates the compiled default and team rules. It is safe for
// concurrent use: the prepared queries are shared by every goroutine.
type Engine struct {
	// The prepared queries, each usable once its stage has compiled
	// (compile.go). Every method that evaluates one waits for it.
	decide *query
	cbd    *query
	// prepareQ and triggersQ: see prepare.go and triggers.go.
	prepareQ  *query
	triggersQ *query
	moves     *query // see moves.go
	// computedMovesQ evaluates team computed moves (team_moves.go), only
	// prepared when a team rule adds to them.
	computedMovesQ *query
	hasTeamMoves   bool
	// teamDecide reads what team rules add to the decide extension points;
	// decideWithTeam evaluates the table with those elements given as
	// input (decide_team.go). Prepared when team rules extend decide.
	teamDecide     *query
	decideWithTeam *query

	// provenance by rule id (default rules) or team handle ("team:N"),
	// filled as stages compile; values are provenance.Rule.
	provenance sync.Map
	// one-element provenance slices shared between decisions; values are
	// []provenance.Rule.
	single sync.Map

	// includeValues is set when team rules are loaded: the defaults never
	// read config/prior/planned values, so building them is skipped otherwise.
	includeValues bool
	// omit names the values no team rule can read (team.go).
	omit        valueOmissions
	isSensitive func(mark any) bool
	// teamFiles are the names of the team rule files, by which evaluation
	// errors are told apart from the defaults' (failclosed.go); limits
	// bound their evaluations (limits.go).
	teamFiles map[string]bool
	limits    evalLimits

	// memo remembers single-instance decisions (decide_memo.go).
	memo decideMemo
	// checkAll: the decide rules look for conflicts in every chunk, not
	// only in one where an instance has no decision or several
	// (evaluator/decide.rego); for the reference evaluator.
	checkAll bool

	// guards leave out of the team stages the instances no team rule can
	// add an element for (guards.go); nil guards evaluate every instance.
	guards struct{ decide, prepare *stageGuards }

	// compiling tracks the team stages compiling in the background and
	// what failed (compile.go).
	compiling struct {
		wg          sync.WaitGroup
		mu          sync.Mutex
		errs        []ast.Errors
		prepareErrs []error
	}
}

// New parses and compiles the default rules plus the team rule sources, and
// prepares the queries. It is called once per run.
//
// Without team rules the default rules are compiled in the background, one
// package per goroutine, and New returns at once: the engine's methods wait
// for the stage they evaluate. The default rules are tested, so nothing is
// learnt by waiting; the run plans while the decision table compiles. With
// team rules New parses and checks their files, compiles the stages in the
// background too, and waits for them before returning, so that mistakes in
// team files are reported up front with their file and line; with
// Options.Background it returns at once and [Engine.Diagnostics] reports
// them after planning.
func New(ctx context.Context, opts Options) (*Engine, hcl.Diagnostics) {
	e := &Engine{isSensitive: opts.IsSensitive}
	if len(opts.Team) == 0 {
		e.compileDefaultsInBackground(ctx)
		return e, nil
	}
	var diags hcl.Diagnostics
	modules := map[string]*ast.Module{}

	defaults, moreDiags := parseDefaults()
	diags = append(diags, moreDiags...)
	for _, m := range defaults {
		modules[m.Package.Location.File] = m
	}
	defaultNames := ruleNamesByPackage(defaults)

	var team []*teamRule
	var teamModules []*ast.Module
	for _, src := range opts.Team {
		mods, moreDiags := parseSource(src)
		diags = append(diags, moreDiags...)
		for _, m := range mods {
			diags = append(diags, checkSandbox(m)...)
			boundCalls(m)
			rules, moreDiags := wrapExtensionRules(m, defaultNames, len(team))
			diags = append(diags, moreDiags...)
			team = append(team, rules...)
			modules[m.Package.Location.File] = m
			teamModules = append(teamModules, m)
			e.includeValues = true
		}
	}
	limits, err := limitsFrom(opts, defaultGetenv)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid limit for team rules",
			Detail:   err.Error() + ". Set it to a valid value or unset it to use the default.",
		})
	}
	e.limits = limits
	if diags.HasErrors() {
		return nil, diags
	}
	if e.includeValues {
		e.omit = omissions(team, teamModules, defaultNames["data.tenet.decide"])
	}

	stages, ok := stageModules(defaults, teamModules)
	if !ok {
		// A team file reaches across stages: one compiler for everything.
		stages = map[string]map[string]*ast.Module{"": modules}
	}
	// Team rules reach the default decision table only through its
	// extension points, so decisions can still be shared by facts: the
	// elements team rules add for an instance become part of its facts
	// (decide_team.go).
	e.memo.team = !e.omit.decide
	e.hasTeamMoves = hasTeamRulesFor(team, "data.tenet.moves", "moves")
	e.teamFiles = map[string]bool{}
	for _, m := range teamModules {
		e.teamFiles[m.Package.Location.File] = true
	}
	e.compileStagesInBackground(ctx, stages, team, e.teamFiles)
	if opts.Background {
		return e, diags
	}
	if moreDiags := e.Diagnostics(ctx); moreDiags.HasErrors() {
		return nil, append(diags, moreDiags...)
	}
	return e, diags
}

func newCompiler() *ast.Compiler {
	return ast.NewCompiler().
		WithCapabilities(sandboxCapabilities()).
		WithBuiltins(map[string]*ast.Builtin{reachableBuiltin.Name: reachableBuiltin}).
		WithEnablePrintStatements(false)
}

func prepareQuery(ctx context.Context, c *ast.Compiler, query string, extra ...func(*rego.Rego)) (rego.PreparedEvalQuery, error) {
	opts := append([]func(*rego.Rego){
		rego.Query(query),
		rego.Compiler(c),
		reachableFunction(),
	}, extra...)
	return rego.New(opts...).PrepareForEval(ctx)
}

// newTeamCompiler is newCompiler for stages with team files, whose calls
// of the built-ins that can build huge values go to bounded copies
// (bounded.go).
func newTeamCompiler() *ast.Compiler {
	builtins := map[string]*ast.Builtin{reachableBuiltin.Name: reachableBuiltin}
	for name, b := range boundedDecls() {
		builtins[name] = b
	}
	return ast.NewCompiler().
		WithCapabilities(sandboxCapabilities()).
		WithBuiltins(builtins).
		WithEnablePrintStatements(false)
}

// teamRule is a team rule that adds to an extension point.
type teamRule struct {
	pkg, name string
	rule      *ast.Rule
	handle    string
}

// parseDefaults parses the embedded default rule files (tests excluded),
// the files of each stage on their own goroutine: parsing them all takes
// milliseconds, the time a small plan waits for its rules. The modules
// come in file name order, as one parseDefaultFiles call gives them.
func parseDefaults() ([]*ast.Module, hcl.Diagnostics) {
	type parsed struct {
		mods  []*ast.Module
		diags hcl.Diagnostics
	}
	parts := make([]parsed, len(defaultStages)+1)
	var wg sync.WaitGroup
	for i, st := range defaultStages {
		wg.Go(func() {
			parts[i].mods, parts[i].diags = parseDefaultFiles(func(name string) bool { return strings.HasPrefix(name, st.files) })
		})
	}
	// Files no stage claims (none today) are parsed too.
	parts[len(defaultStages)].mods, parts[len(defaultStages)].diags = parseDefaultFiles(func(name string) bool {
		return !slices.ContainsFunc(defaultStages, func(st defaultStage) bool { return strings.HasPrefix(name, st.files) })
	})
	wg.Wait()
	var mods []*ast.Module
	var diags hcl.Diagnostics
	for _, p := range parts {
		mods = append(mods, p.mods...)
		diags = append(diags, p.diags...)
	}
	sort.SliceStable(mods, func(i, j int) bool { return mods[i].Package.Location.File < mods[j].Package.Location.File })
	return mods, diags
}

// parseDefaultFiles parses the embedded default rule files (tests
// excluded) and the evaluator's files whose names keep accepts.
func parseDefaultFiles(keep func(name string) bool) ([]*ast.Module, hcl.Diagnostics) {
	var mods []*ast.Module
	var diags hcl.Diagnostics
	for _, dir := range []string{"planning", "evaluator"} {
		entries, _ := fs.ReadDir(defaultRules, dir)
		for _, ent := range entries {
			name := ent.Name()
			if !isRuleFile(name) || !keep(name) {
				continue
			}
			src, err := defaultRules.ReadFile(dir + "/" + name)
			if err != nil {
				diags = append(diags, internalDiag(err))
				continue
			}
			m, err := parseDefaultModule(path.Join(defaultDir, dir, name), src)
			if err != nil {
				diags = append(diags, astErrorDiags("Invalid rule file", err)...)
				continue
			}
			mods = append(mods, m)
		}
	}
	return mods, diags
}

func isRuleFile(name string) bool {
	return strings.HasSuffix(name, ".rego") && !strings.HasSuffix(name, "_test.rego")
}

// parseDefaultModule parses a default rule file, rewriting rules written
// about one instance into the form the evaluator queries (chunk_form.go).
func parseDefaultModule(filename string, src []byte) (*ast.Module, error) {
	m, err := parseModule(filename, src)
	if err != nil || !chunkFormPackages[m.Package.Path.String()] {
		return m, err
	}
	if err := chunkForm(m); err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return m, nil
}

func parseModule(filename string, src []byte) (*ast.Module, error) {
	return regokit.ParseFile(filename, src, ast.RegoV1)
}

// parseSource parses every rule file (not *_test.rego) of a team source, in
// lexical order.
func parseSource(src Source) ([]*ast.Module, hcl.Diagnostics) {
	return parseSourceFiles(src, isRuleFile)
}

// parseSourceFiles parses the files of src whose names keep accepts.
func parseSourceFiles(src Source, keep func(name string) bool) ([]*ast.Module, hcl.Diagnostics) {
	files, diags := regokit.Dir{FS: src.FS, Name: src.Name, Noun: "rule", Version: ast.RegoV1, Keep: keep}.Load()
	mods := make([]*ast.Module, len(files))
	for i, f := range files {
		mods[i] = f.Module
	}
	return mods, diags
}

// wrapExtensionRules checks a team module against the default packages and
// rewrites the head of each extension-point rule so that every element it adds
// carries a handle to the rule: `force_replace contains msg` becomes
// `force_replace contains {"value": msg, "rule": "team:N"}`. Team authors
// then get per-rule provenance without writing ids into their values.
func wrapExtensionRules(m *ast.Module, defaultNames map[string]map[string]bool, next int) ([]*teamRule, hcl.Diagnostics) {
	pkg := m.Package.Path.String()
	points, extensible := extensionPoints[pkg]
	if !extensible {
		if defaultNames[pkg] != nil {
			return nil, hcl.Diagnostics{locatedDiag("Rule file uses a reserved package", m.Package.Location,
				fmt.Sprintf("Package %s belongs to the default rules and has no extension points. Use your own package name.", strings.TrimPrefix(pkg, "data.")))}
		}
		return nil, instanceUseDiags(m.Rules, pkg)
	}
	// The default file of the package documents it: a team file's package
	// METADATA would redeclare it, so it is dropped (it is only prose).
	dropPackageAnnotations(m)
	var out []*teamRule
	var diags hcl.Diagnostics
	for _, r := range m.Rules {
		name := ruleName(r)
		isPoint := false
		for _, p := range points {
			isPoint = isPoint || p == name
		}
		switch {
		case isPoint && (r.Head.RuleKind() != ast.MultiValue || len(r.Head.Ref()) != 1):
			diags = append(diags, locatedDiag("Invalid extension rule", r.Location,
				fmt.Sprintf("%s is an extension point: add to it with `%s contains VALUE if { ... }`.", name, name)))
		case isPoint:
			if perInstancePackages[pkg] {
				toChunkForm(r)
			}
			handle := fmt.Sprintf("team:%d", next+len(out))
			r.Head.Key = ast.ObjectTerm(
				ast.Item(ast.InternedTerm("value"), r.Head.Key),
				ast.Item(ast.InternedTerm("rule"), ast.StringTerm(handle)),
			)
			out = append(out, &teamRule{pkg: pkg, name: name, rule: r, handle: handle})
		case defaultNames[pkg][name]:
			diags = append(diags, locatedDiag("Team rule redefines a default rule", r.Location,
				fmt.Sprintf("%s is defined by the default rules of package %s; team rules may only add to the extension points (%s). Rename the rule.",
					name, strings.TrimPrefix(pkg, "data."), strings.Join(points, ", "))))
		default:
			diags = append(diags, instanceUseDiags([]*ast.Rule{r}, pkg)...)
		}
	}
	return out, diags
}

// indexProvenance resolves rule ids to files and lines from the compiled
// annotations, and team handles to the team rules they stand for.
func (e *Engine) indexProvenance(c *ast.Compiler, team []*teamRule) {
	// Compilation rewrites rules, so team rules are matched by location.
	byLocation := map[string]regokit.Annotation{}
	for _, a := range regokit.Annotations(c.GetAnnotationSet()) {
		if a.Location != nil {
			byLocation[fmt.Sprintf("%s:%d", a.Location.File, a.Location.Row)] = a
		}
		if a.ID == "" || a.Scope != "rule" {
			continue
		}
		f := provenance.Rule{RuleID: a.ID, Title: a.Title}
		if a.Location != nil {
			f.File, f.Line = a.Location.File, a.Location.Row
		}
		e.addProvenance(a.ID, f)
	}
	e.indexDecideNames(c)
	for _, t := range team {
		loc := t.rule.Location
		f := provenance.Rule{RuleID: fmt.Sprintf("team:%s:%d", loc.File, loc.Row), File: loc.File, Line: loc.Row}
		if a, ok := byLocation[fmt.Sprintf("%s:%d", loc.File, loc.Row)]; ok && a.Scope == "rule" {
			if a.ID != "" {
				f.RuleID = a.ID
			}
			f.Title = a.Title
		}
		e.addProvenance(t.handle, f)
	}
}

// indexDecideNames makes the default decide rules' provenance reachable by
// rule name: the decision rules name the row, or the rule, that decided
// (decision.NAME or NAME), and their ids are written in METADATA only.
func (e *Engine) indexDecideNames(c *ast.Compiler) {
	for _, ref := range c.GetAnnotationSet().Flatten() {
		a := ref.Annotations
		id, _ := a.Custom["id"].(string)
		if id == "" || a.Scope != "rule" || ref.Location == nil ||
			!strings.HasPrefix(ref.Location.File, defaultDir+"/") || !ref.Path.HasPrefix(decideRef) {
			continue
		}
		name, ok := ref.Path[len(ref.Path)-1].Value.(ast.String)
		if f, found := e.provenance.Load(id); ok && found {
			e.addProvenance(string(name), f.(provenance.Rule))
		}
	}
}

func (e *Engine) addProvenance(id string, f provenance.Rule) {
	e.provenance.Store(id, f)
	e.single.Store(id, []provenance.Rule{f})
}

// fired returns the provenance of a rule id or team handle.
func (e *Engine) fired(id string) provenance.Rule {
	if f, ok := e.provenance.Load(id); ok {
		return f.(provenance.Rule)
	}
	return provenance.Rule{RuleID: id}
}

// singleFired is fired as a shared one-element slice.
func (e *Engine) singleFired(id string) []provenance.Rule {
	if fs, ok := e.single.Load(id); ok {
		return fs.([]provenance.Rule)
	}
	return []provenance.Rule{e.fired(id)}
}
