package policy

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/tenetplan/tenet/internal/regokit"
)

// DefaultTimeout bounds one whole check unless the policy-set config or
// [Options.Timeout] says otherwise.
const DefaultTimeout = 10 * time.Second

// Options says where policies come from and how to run them.
type Options struct {
	// Paths are directories, .rego files, JSON/YAML data files and OPA
	// bundles (.tar.gz), in order.
	Paths []string
	// Env is the environment opa.runtime shows to policy sets that allow
	// "environment"; nothing else sees it.
	Env []string
	// Timeout overrides every source's timeout when set.
	Timeout time.Duration
}

// Policy is one deny, warn or violation rule: the unit that passes or
// fails, and that carries an enforcement level.
type Policy struct {
	// Name is the rule's METADATA title, or PACKAGE.RULE.
	Name    string `json:"name"`
	Package string `json:"package"`
	Rule    string `json:"rule"`
	// Kind is deny, warn or violation (the rule name's prefix).
	Kind        string `json:"kind"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Level       Level  `json:"level"`
	Description string `json:"description,omitempty"`
}

// Location is FILE:LINE.
func (p Policy) Location() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// Set is a compiled policy set, ready to check plans. It is safe for
// concurrent use.
type Set struct {
	policies []compiledPolicy
	timeout  time.Duration
	// input is what the policies can read of the plan JSON.
	input inputUse
	// evalAll turns off evaluating change-local policies over one change
	// of each kind first (tests compare both ways).
	evalAll bool
}

type compiledPolicy struct {
	Policy
	query rego.PreparedEvalQuery
	// local: the policy reads one change at a time and not its address in
	// its conditions (local.go), so it is first evaluated over one change
	// of each kind.
	local bool
	// relaxed, for other policies binding one change, are the conditions
	// that hold alike for changes of a kind (local.go): when none of one
	// change of each kind passes them, the policy reports nothing.
	relaxed *rego.PreparedEvalQuery
	// whole, for a complete rule defined more than once, is the rule with
	// all its definitions. Each definition is checked apart, where they
	// cannot conflict; evaluating the whole rule too makes a conflict
	// (definitions giving different values) an error, as it is in OPA,
	// rather than a pass. Such policies are always evaluated over every
	// change.
	whole *rego.PreparedEvalQuery
}

// Policies lists the policies of the set, in file and line order.
func (s *Set) Policies() []Policy {
	out := make([]Policy, len(s.policies))
	for i, p := range s.policies {
		out[i] = p.Policy
	}
	return out
}

// Len is the number of policies.
func (s *Set) Len() int { return len(s.policies) }

// ruleKind returns deny, warn or violation for a policy rule name (the name
// itself or the name followed by "_…", as conftest matches), or "".
func ruleKind(name string) string {
	for _, k := range []string{"deny", "warn", "violation"} {
		if name == k || strings.HasPrefix(name, k+"_") {
			return k
		}
	}
	return ""
}

// loadSandboxed loads the sources and refuses any module that uses a
// builtin its policy set does not allow.
func loadSandboxed(paths []string, tests bool) (*loaded, hcl.Diagnostics) {
	l, diags := loadSources(paths, tests)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, mf := range l.modules {
		diags = append(diags, sandboxFor(mf.src.cfg.Allow).Check(mf.mod)...)
	}
	return l, diags
}

// Load reads, parses and compiles every policy source and prepares one
// query per policy rule. Parse, compile and sandbox errors name file and
// line; any error means no Set.
func Load(ctx context.Context, opts Options) (*Set, hcl.Diagnostics) {
	l, diags := loadSandboxed(opts.Paths, false)
	if diags.HasErrors() {
		return nil, diags
	}
	mods := make([]*ast.Module, len(l.modules))
	for i, mf := range l.modules {
		mods[i] = mf.mod
	}
	annotations, errs := ast.BuildAnnotationSet(mods)
	if len(errs) > 0 {
		return nil, regokit.ErrorDiags("Invalid policy metadata", errs)
	}

	// Each policy rule is copied under a private name so that its own
	// results can be queried apart from other rules of the same name.
	type pending struct {
		Policy
		query string
		// whole is the original rule, when it is a complete rule with
		// more than one definition: see compiledPolicy.whole.
		whole string
	}
	var found []pending
	definitions := completeDefinitions(l.modules)
	for _, mf := range l.modules {
		pkg := strings.TrimPrefix(mf.mod.Package.Path.String(), "data.")
		var clones []*ast.Rule
		for _, r := range mf.mod.Rules {
			ref := r.Head.Ref()
			if r.Default || len(r.Head.Args) > 0 || len(ref) != 1 {
				continue
			}
			name := ref[0].Value.String()
			kind := ruleKind(name)
			if kind == "" {
				continue
			}
			p := Policy{Name: pkg + "." + name, Package: pkg, Rule: name, Kind: kind, File: mf.file, Line: r.Location.Row}
			level, d := resolveLevel(annotations, r, mf, p)
			diags = append(diags, d...)
			p.Level = level
			title, description := regokit.Describe(annotations, r)
			if title != "" {
				p.Name = title
			}
			p.Description = description
			cloneName := fmt.Sprintf("__tenet_policy_%d", len(found))
			clones = append(clones, renameRule(r, cloneName))
			pf := pending{Policy: p, query: mf.mod.Package.Path.Append(ast.StringTerm(cloneName)).String()}
			if original := mf.mod.Package.Path.Append(ast.StringTerm(name)).String(); definitions[original] > 1 {
				pf.whole = original
			}
			found = append(found, pf)
		}
		mf.mod.Rules = append(mf.mod.Rules, clones...)
	}
	if diags.HasErrors() {
		return nil, diags
	}

	compiler, runtime := newCompiler(l, opts.Env)
	compiler.Compile(moduleMap(l.modules))
	if compiler.Failed() {
		return nil, regokit.ErrorDiags("Invalid policy", compiler.Errors)
	}
	store := inmem.NewFromObject(l.data)
	s := &Set{timeout: setTimeout(l, opts.Timeout), input: analyzeInputUse(compiler.Modules)}
	prepare := func(f pending, query ...func(*rego.Rego)) (*rego.PreparedEvalQuery, hcl.Diagnostics) {
		q, err := rego.New(append(query,
			rego.Compiler(compiler),
			rego.Store(store),
			rego.StrictBuiltinErrors(true),
			rego.Runtime(runtime),
		)...).PrepareForEval(ctx)
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot prepare policy",
				Detail: fmt.Sprintf("%s: preparing %s failed: %s.", f.Location(), f.Name, err)}}
		}
		return &q, nil
	}
	for _, f := range found {
		q, failed := prepare(f, rego.Query(f.query))
		if failed != nil {
			return nil, failed
		}
		cp := compiledPolicy{Policy: f.Policy, query: *q}
		if f.whole != "" {
			if cp.whole, failed = prepare(f, rego.Query(f.whole)); failed != nil {
				return nil, failed
			}
		} else {
			cp.local = localPolicy(compiler, f.query)
		}
		if !cp.local && cp.whole == nil {
			if body := relaxedPolicy(compiler, f.query); body != nil {
				cp.relaxed, _ = prepare(f, rego.ParsedQuery(body)) // nil: evaluated over every change
			}
		}
		s.policies = append(s.policies, cp)
	}
	sort.SliceStable(s.policies, func(i, j int) bool {
		a, b := s.policies[i], s.policies[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return s, diags
}

// completeDefinitions counts the definitions of each complete policy
// rule (deny := …), by its path (data.PKG.RULE), over all modules.
func completeDefinitions(mods []*moduleFile) map[string]int {
	n := map[string]int{}
	for _, mf := range mods {
		for _, r := range mf.mod.Rules {
			ref := r.Head.Ref()
			if r.Default || len(r.Head.Args) > 0 || len(ref) != 1 || r.Head.RuleKind() != ast.SingleValue {
				continue
			}
			if name := ref[0].Value.String(); ruleKind(name) != "" {
				n[mf.mod.Package.Path.Append(ast.StringTerm(name)).String()]++
			}
		}
	}
	return n
}

// renameRule copies r (and its else chain) under a new name.
func renameRule(r *ast.Rule, name string) *ast.Rule {
	c := r.Copy()
	c.Annotations = nil
	for x := c; x != nil; x = x.Else {
		x.Head.Name = ast.Var(name)
		x.Head.Reference = ast.Ref{ast.VarTerm(name)}
	}
	return c
}

// moduleMap keys modules by file, keeping the same file given twice apart.
func moduleMap(mods []*moduleFile) map[string]*ast.Module {
	out := make(map[string]*ast.Module, len(mods))
	for _, mf := range mods {
		key := mf.file
		for n := 2; out[key] != nil; n++ {
			key = fmt.Sprintf("%s#%d", mf.file, n)
		}
		out[key] = mf.mod
	}
	return out
}

// newCompiler returns a compiler whose capabilities leave out every
// sandboxed built-in no source allows, and the runtime document
// (environment) when a source allows it.
func newCompiler(l *loaded, env []string) (*ast.Compiler, *ast.Term) {
	allowed := map[Capability]bool{}
	for _, s := range l.sources {
		for c := range s.cfg.Allow {
			allowed[c] = true
		}
	}
	caps := sandboxFor(allowed).Capabilities()
	runtime := ast.ObjectTerm()
	if allowed[AllowEnvironment] {
		vars := ast.NewObject()
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok {
				vars.Insert(ast.StringTerm(k), ast.StringTerm(v))
			}
		}
		runtime = ast.ObjectTerm(ast.Item(ast.StringTerm("env"), ast.NewTerm(vars)))
	}
	return ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false), runtime
}

func setTimeout(l *loaded, override time.Duration) time.Duration {
	if override > 0 {
		return override
	}
	t := time.Duration(0)
	for _, s := range l.sources {
		if s.cfg.Timeout > t {
			t = s.cfg.Timeout
		}
	}
	if t == 0 {
		return DefaultTimeout
	}
	return t
}

// resolveLevel decides a policy's enforcement level. An explicit entry in
// the policy-set config wins (by PACKAGE.RULE, then file, then package), so
// the people who run a policy set can tighten or relax what authors wrote;
// then the nearest METADATA custom "enforcement" (rule, document, package,
// subpackages); then the config's default_enforcement; then the kind's
// default: deny and violation hard-mandatory. Warn rules are advisory
// unless their own rule is given a level (by PACKAGE.RULE or rule METADATA).
func resolveLevel(as *ast.AnnotationSet, r *ast.Rule, mf *moduleFile, p Policy) (Level, hcl.Diagnostics) {
	cfg := mf.src.cfg
	keys := []string{p.Package + "." + p.Rule, mf.rel, path.Base(mf.rel), p.Package}
	if p.Kind == "warn" {
		keys = keys[:1]
	}
	for _, key := range keys {
		if l, ok := cfg.Enforcement[key]; ok {
			return l, nil
		}
	}
	for _, a := range regokit.Chain(as, r) {
		if p.Kind == "warn" && a.Scope != "rule" {
			continue
		}
		raw, ok := a.Custom["enforcement"]
		if !ok {
			continue
		}
		s, _ := raw.(string)
		l, ok := ParseLevel(s)
		if !ok {
			return "", hcl.Diagnostics{regokit.LocatedDiag("Invalid enforcement level", a.Location,
				fmt.Sprintf("custom.enforcement is %v; use advisory, soft-mandatory or hard-mandatory.", raw))}
		}
		return l, nil
	}
	if cfg.DefaultEnforcement != "" && p.Kind != "warn" {
		return cfg.DefaultEnforcement, nil
	}
	if p.Kind == "warn" {
		return Advisory, nil
	}
	return HardMandatory, nil
}
