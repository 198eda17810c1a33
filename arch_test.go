package main

import (
	"bytes"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const modulePath = "github.com/tenetplan/tenet"

// layerImports is design.md's "Layout and dependency direction" table: for
// each layer, the other layers it may import. A package belongs to the
// layer with the longest matching path, so subpackages count as their
// parent (providers/builtin/random is providers) unless they have a row of
// their own (engine/plan, engine/plan/planjson, engine/plan/action,
// cli/views). Imports within a layer are free.
var layerImports = map[string][]string{
	"main":      {"cli", "internal/gcstart"},
	"cli":       {"internal/sshtest", "cli/views", "engine", "engine/plan", "engine/plan/action", "engine/plan/planjson", "engine/plan/planfile", "policy", "config", "state", "providers", "rules", "graphsolve", "addrs", "internal/jsontext", "internal/registryhttp", "internal/attrpath", "internal/provenance", "internal/udiff", "internal/atomicfile"},
	"cli/views": {"engine/plan/action", "engine/plan/planjson", "engine/plan/plantest", "config", "state", "providers", "addrs", "internal/jsontext"},                                                                                                              // rendering only: the plan as its JSON document, never the engine
	"engine":    {"engine/planning", "engine/applying", "engine/validating", "engine/phase", "engine/graph", "engine/providercall", "config", "addrs", "providers", "rules", "state", "engine/plan", "engine/plan/action", "engine/plan/planfile", "provisioners"}, // the facade: delegates to the phases
	// The engine's phases, each importing only the ones below it: the
	// facade, engine, over the three walks (planning, applying,
	// validating, which never import one another), over what the walks
	// share with the facade (phase: the run's environment, hooks and
	// scope) and with each other (ignorechanges; nodes: what visiting a
	// graph node means), over graph (building the graphs) over eval
	// (expression evaluation) over providercall (the provider protocol).
	// Only the facade is imported from outside.
	"engine/planning":      {"engine/phase", "engine/ignorechanges", "engine/nodes", "engine/graph", "engine/eval", "engine/providercall", "config", "addrs", "graphsolve", "providers", "state", "rules", "engine/plan", "engine/plan/action", "engine/plan/planjson", "internal/attrpath", "internal/provenance"},
	"engine/applying":      {"engine/phase", "engine/ignorechanges", "engine/nodes", "engine/graph", "engine/eval", "engine/providercall", "config", "addrs", "graphsolve", "providers", "provisioners", "state", "rules", "engine/plan", "engine/plan/action"},
	"engine/validating":    {"engine/phase", "engine/ignorechanges", "engine/nodes", "engine/graph", "engine/eval", "engine/providercall", "config", "addrs", "providers", "provisioners"},
	"engine/phase":         {"engine/graph", "engine/eval", "engine/plan", "engine/plan/action", "config", "addrs", "providers", "rules", "state"},
	"engine/ignorechanges": {"config", "addrs", "providers", "rules", "internal/attrpath"},
	"engine/nodes":         {"engine/graph", "engine/eval", "engine/providercall", "config", "addrs", "providers", "provisioners"},
	"engine/graph":         {"engine/eval", "engine/providercall", "engine/plan", "engine/plan/action", "config", "addrs", "graphsolve", "providers", "state"}, // state: the objects OpenTofu's destroy and apply graphs draw
	"engine/eval":          {"engine/providercall", "config", "addrs", "providers", "state"},
	"engine/providercall":  {"engine/plan", "engine/plan/action", "config", "addrs", "providers", "internal/attrpath"},
	"engine/plan":          {"engine/plan/action", "engine/plan/plantest", "addrs", "state", "internal/jsontext", "internal/provenance"}, // plantest only in its external tests
	"engine/plan/action":   nil,                                                                                                          // the one action vocabulary: a leaf, so the UIs may name actions too
	// The plan's encodings, each the only reader and writer of its format
	// (like state/statefile and state/statejson), and the plan builders
	// tests share.
	"engine/plan/planjson": {"engine/plan", "engine/plan/action", "engine/plan/plantest", "addrs", "state", "internal/jsontext", "internal/provenance"},
	"engine/plan/planfile": {"engine/plan", "engine/plan/action", "engine/plan/planjson", "engine/plan/plantest", "addrs", "state", "internal/provenance", "internal/atomicfile"},
	"engine/plan/plantest": {"engine/plan", "engine/plan/action", "addrs", "state"},
	"policy":               {"engine/plan", "addrs", "internal/jsontext", "internal/regokit"},
	"config":               {"addrs", "internal/registryhttp", "internal/versionparse"},
	"state":                {"addrs", "internal/jsontext", "internal/atomicfile"},
	"providers":            {"addrs", "internal/registryhttp", "internal/versionparse", "internal/attrpath", "internal/atomicfile"},
	// Provisioners are plugins of the apply like providers, and share
	// their schema and diagnostic types; they never see configuration or
	// state, and only the walks that run or check them import them.
	"provisioners": {"providers", "internal/sshtest"},                                // sshtest only in tests
	"rules":        {"internal/regokit", "internal/attrpath", "internal/provenance"}, // a leaf of the project: only the leaf Rego toolkit, the attribute path and provenance
	"graphsolve":   nil,
	"addrs":        nil,
	// Not in design.md's table: a leaf helper (the JSON lexer and string
	// writer, exactly as encoding/json reads and writes) shared by the
	// hand-written JSON codecs of state, the plan document and policy,
	// which may be imported from any layer that reads JSON by hand.
	"internal/jsontext": nil,
	// Also not in design.md's table: the one HTTP client for registries
	// (service discovery, tokens only over https), shared by provider
	// installation and module installation (config/modinstall), which
	// must not import each other, and by the CLI's login and logout
	// (service discovery, the OAuth token request).
	"internal/registryhttp": nil,
	// Also not in design.md's table: the Rego toolkit (loading, the
	// sandbox, errors as diagnostics, METADATA, the test runner) that
	// team planning rules and compliance policies share.
	"internal/regokit": nil,
	// Also not in design.md's table: main's first import, which turns the
	// collector off before the dependencies' init functions run.
	"internal/gcstart": nil,
	// Also not in design.md's table: version and constraint parsing that
	// turns the library's panic on huge numbers into an error, shared by
	// provider and module installation.
	"internal/versionparse": nil,
	// Also not in design.md's table: the one attribute path (a cty.Path)
	// and its other forms (the rules' step list, the display string, the
	// identity key, from a traversal), shared by the rules and the engine.
	"internal/attrpath": nil,
	// Also not in design.md's table: the one record of a rule's part in a
	// decision, which the rules return and the plan keeps.
	"internal/provenance": nil,
	// Also not in design.md's table: the unified diff fmt -diff prints.
	"internal/udiff": nil,
	// Also not in design.md's table: replacing a user's file whole
	// (state, backups, plans, the lock file, credentials), keeping links
	// and devices what they are.
	"internal/atomicfile": nil,
	// Also not in design.md's table: a loopback SSH server for the tests
	// of the provisioners that connect to other machines and of the CLI
	// that runs them; no production code imports it.
	"internal/sshtest": nil,
}

// layerOf maps a package path relative to the module to its layer, or ""
// when no row of the table covers it.
func layerOf(rel string) string {
	if rel == "" {
		return "main"
	}
	best := ""
	for layer := range layerImports {
		if (rel == layer || strings.HasPrefix(rel, layer+"/")) && len(layer) > len(best) {
			best = layer
		}
	}
	return best
}

// importEdge is one project-internal import.
type importEdge struct {
	from, to string // module-relative package paths
	test     bool
}

// projectImports lists every project-internal import of the module's
// packages, including their tests.
func projectImports(t *testing.T) []importEdge {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f",
		"{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	rel := func(p string) (string, bool) {
		if p == modulePath {
			return "", true
		}
		r, ok := strings.CutPrefix(p, modulePath+"/")
		return r, ok
	}
	var edges []importEdge
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("unexpected go list line %q", line)
		}
		from, ok := rel(parts[0])
		if !ok {
			continue
		}
		for i, list := range parts[1:] {
			for _, imp := range strings.Fields(list) {
				to, ok := rel(imp)
				if !ok || to == from {
					continue
				}
				edges = append(edges, importEdge{from: from, to: to, test: i == 1})
			}
		}
	}
	return edges
}

// TestLayering fails on any import between the project's packages that
// the layout table of design.md forbids.
func TestLayering(t *testing.T) {
	edges := projectImports(t)
	if len(edges) == 0 {
		t.Fatal("go list found no project-internal imports; is the module path right?")
	}
	var problems []string
	for _, e := range edges {
		from, to := layerOf(e.from), layerOf(e.to)
		kind := "imports"
		if e.test {
			kind = "imports (in its tests)"
		}
		switch {
		case from == "":
			problems = append(problems, e.from+" is in no layer of design.md's layout table: add a row for it there and in layerImports")
		case to == "":
			problems = append(problems, e.to+" is in no layer of design.md's layout table: add a row for it there and in layerImports")
		case from == to:
		case !slices.Contains(layerImports[from], to):
			problems = append(problems, e.from+" "+kind+" "+e.to+": layer "+from+" may not import layer "+to)
		}
	}
	sort.Strings(problems)
	problems = slices.Compact(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestLayerTable checks the table's own promises, so an edit to it that
// contradicts design.md's rules fails here.
func TestLayerTable(t *testing.T) {
	for layer, allowed := range layerImports {
		if slices.Contains(allowed, "engine") && layer != "cli" {
			t.Errorf("only cli may import engine; the table lets %s", layer)
		}
		if (layer == "engine" || strings.HasPrefix(layer, "engine/")) && slices.Contains(allowed, "policy") {
			t.Errorf("the engine must never import policy; the table lets %s", layer)
		}
		if layer == "providers" && (slices.Contains(allowed, "config") || slices.Contains(allowed, "state")) {
			t.Error("providers must never import config or state")
		}
	}
	// The engine's phases import downwards only: each may import the
	// ones after it in this list, never one before it.
	phases := []string{"engine", "engine/planning", "engine/applying", "engine/validating", "engine/phase", "engine/ignorechanges", "engine/nodes", "engine/graph", "engine/eval", "engine/providercall"}
	for i, lower := range phases {
		for _, upper := range phases[:i] {
			if slices.Contains(layerImports[lower], upper) {
				t.Errorf("%s is below %s and may not import it", lower, upper)
			}
		}
	}
	// The walks are siblings: what two of them need lives below them.
	walks := []string{"engine/planning", "engine/applying", "engine/validating"}
	for _, a := range walks {
		for _, b := range walks {
			if a != b && slices.Contains(layerImports[a], b) {
				t.Errorf("%s and %s are sibling phases; the table lets %s import %s", a, b, a, b)
			}
		}
	}
	for _, leaf := range []string{"rules", "graphsolve", "addrs"} {
		for _, imp := range layerImports[leaf] {
			if len(layerImports[imp]) != 0 || !strings.HasPrefix(imp, "internal/") {
				t.Errorf("%s must import nothing of the project but leaf helpers; the table lets it import %s", leaf, imp)
			}
		}
	}
	tests := []struct{ pkg, layer string }{
		{"", "main"},
		{"providers/builtin/random", "providers"},
		{"providers/objchange", "providers"},
		{"engine/plan", "engine/plan"},
		{"engine/plan/planjson", "engine/plan/planjson"},
		{"engine", "engine"},
		{"engine/eval", "engine/eval"},
		{"engine/providercall", "engine/providercall"},
		{"engine/planning", "engine/planning"},
		{"engine/applying", "engine/applying"},
		{"cli/views", "cli/views"},
		{"cli/views/human", "cli/views"},
		{"cli/views/jsonui", "cli/views"},
		{"config/funcs", "config"},
		{"state/local", "state"},
		{"stateful", ""},
		{"testdata", ""},
	}
	for _, tt := range tests {
		if got := layerOf(tt.pkg); got != tt.layer {
			t.Errorf("layerOf(%q) = %q, want %q", tt.pkg, got, tt.layer)
		}
	}
}
