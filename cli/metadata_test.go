package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/tools/txtar"

	"github.com/tenetplan/tenet/cli"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/providers/builtin"
	"github.com/tenetplan/tenet/rules"
)

// metadataFunctions runs `metadata functions -json` and decodes it.
func metadataFunctions(t *testing.T) (raw map[string]json.RawMessage, sigs map[string]map[string]any) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	root := cli.NewRootCommand(cli.Deps{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	root.SetArgs(cli.NormalizeArgs([]string{"metadata", "functions", "-json"}))
	if err := root.Execute(); err != nil {
		t.Fatalf("metadata functions -json: %v\n%s", err, stderr.String())
	}
	var doc struct {
		FormatVersion      string                     `json:"format_version"`
		FunctionSignatures map[string]json.RawMessage `json:"function_signatures"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	if doc.FormatVersion != "1.0" {
		t.Errorf("format_version %q, want 1.0", doc.FormatVersion)
	}
	sigs = map[string]map[string]any{}
	for name, r := range doc.FunctionSignatures {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		sigs[name] = m
	}
	return doc.FunctionSignatures, sigs
}

// openTofuFunctions reads the signatures OpenTofu 1.10.6 printed (types
// and nullability only).
func openTofuFunctions(t *testing.T) map[string]map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "metadata", "opentofu-functions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, sig, _ := strings.Cut(line, "\t")
		var m map[string]any
		if err := json.Unmarshal([]byte(sig), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = m
	}
	return out
}

// The listed functions are exactly those the evaluator accepts: each
// listed name, called without arguments in a plan's scope, is found
// (and, when it has parameters, complains of missing arguments), and
// every function OpenTofu lists that tenet does not is refused as
// unknown. A function added to the evaluator's table is listed; one
// OpenTofu offers that tenet lacks cannot hide.
func TestMetadataFunctionsAreTheEvaluators(t *testing.T) {
	_, sigs := metadataFunctions(t)
	tofu := openTofuFunctions(t)
	scope := planScope(t)

	names := map[string]bool{}
	for n := range sigs {
		names[n] = true
	}
	for n := range tofu {
		names[n] = true
	}
	var all []string
	for n := range names {
		all = append(all, n)
	}
	sort.Strings(all)
	for _, name := range all {
		t.Run(name, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(name+"()"), "test", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			_, _, diags = scope.Eval(expr, nil)
			unknown := hasSummary(diags, "Call to unknown function")
			sig, listed := sigs[name]
			switch {
			case listed && unknown:
				t.Errorf("listed, but the evaluator does not know it: %s", diags.Error())
			case !listed && !unknown:
				t.Errorf("the evaluator knows it (%v), but metadata functions does not list it", diags)
			case listed && sig["parameters"] != nil && !hasSummary(diags, "Not enough function arguments"):
				t.Errorf("listed with parameters %v, but a call without arguments gave %v", sig["parameters"], diags)
			}
		})
	}
}

// Every function OpenTofu 1.10.6 lists, core:: names included, is
// listed: tenet offers the whole set under both names.
func TestMetadataFunctionsListOpenTofus(t *testing.T) {
	_, sigs := metadataFunctions(t)
	var missing []string
	core := 0
	for name := range openTofuFunctions(t) {
		if strings.HasPrefix(name, "core::") {
			core++
		}
		if _, ok := sigs[name]; !ok {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("OpenTofu lists %d functions tenet does not: %v", len(missing), missing)
	}
	if core == 0 {
		t.Fatal("the recorded list has no core:: names; it is not OpenTofu 1.10's")
	}
}

func hasSummary(diags hcl.Diagnostics, summary string) bool {
	for _, d := range diags {
		if d.Summary == summary {
			return true
		}
	}
	return false
}

// planScope plans an empty configuration and returns the scope its
// expressions are evaluated in (the one the test command's assertions
// use, pure as during a plan).
func planScope(t *testing.T) *engine.Scope {
	t.Helper()
	ctx := context.Background()
	fsys := fstest.MapFS{"main.tf": {Data: []byte("# nothing\n")}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r, diags := rules.New(ctx, rules.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	eng := &engine.Engine{Providers: builtin.Registry(), Rules: r, FS: fsys, WorkingDir: t.TempDir()}
	scope := &engine.Scope{}
	if _, diags := eng.Plan(ctx, cfg, nil, engine.PlanOpts{Scope: scope}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return scope
}

// knownSignatureDifferences are where tenet's signature differs from
// OpenTofu's, with why. contains comes from go-cty's stdlib, whose
// version here lets the value searched for be null.
var knownSignatureDifferences = map[string]string{
	"contains": "go-cty's ContainsFunc here allows a null value parameter",
}

// Every function both offer has OpenTofu's parameter and return types.
func TestMetadataFunctionsTypesMatchOpenTofu(t *testing.T) {
	_, sigs := metadataFunctions(t)
	for name, want := range openTofuFunctions(t) {
		got, ok := sigs[name]
		if !ok {
			continue // TestMetadataFunctionsAreTheEvaluators covers the set
		}
		diff := cmp.Diff(want, typesOnly(got))
		if _, known := knownSignatureDifferences[strings.TrimPrefix(name, "core::")]; known {
			if diff == "" {
				t.Errorf("%s now matches OpenTofu: remove it from knownSignatureDifferences", name)
			}
			continue
		}
		if diff != "" {
			t.Errorf("%s: signature differs from OpenTofu's (-OpenTofu +tenet):\n%s", name, diff)
		}
	}
}

// typesOnly drops names and descriptions, as the recorded list does.
func typesOnly(sig map[string]any) map[string]any {
	out := map[string]any{}
	param := func(p any) any {
		m := map[string]any{}
		for k, v := range p.(map[string]any) {
			if k != "name" && k != "description" {
				m[k] = v
			}
		}
		return m
	}
	for k, v := range sig {
		switch k {
		case "description":
		case "parameters":
			var ps []any
			for _, p := range v.([]any) {
				ps = append(ps, param(p))
			}
			out[k] = ps
		case "variadic_parameter":
			out[k] = param(v)
		default:
			out[k] = v
		}
	}
	return out
}

// A few signatures, whole, as printed: a stdlib function with its
// library description, one with a variadic parameter, try and can (whose
// expression parameters are "dynamic"), a conversion function, and
// templatefile. UPDATE=1 rewrites the golden.
func TestMetadataFunctionsGolden(t *testing.T) {
	raw, _ := metadataFunctions(t)
	golden := filepath.Join("testdata", "metadata", "signatures.txtar")
	names := []string{"abs", "can", "coalesce", "format", "join", "lookup", "templatefile", "tolist", "try"}
	var got txtar.Archive
	got.Comment = []byte("Signatures `tenet metadata functions -json` prints, one file per function.\n")
	for _, n := range names {
		var buf bytes.Buffer
		if err := json.Indent(&buf, raw[n], "", "  "); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		buf.WriteByte('\n')
		got.Files = append(got.Files, txtar.File{Name: n + ".json", Data: buf.Bytes()})
	}
	if os.Getenv("UPDATE") != "" {
		if err := os.WriteFile(golden, txtar.Format(&got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(txtar.Format(want)), string(txtar.Format(&got))); diff != "" {
		t.Errorf("signatures differ from %s (-want +got); UPDATE=1 rewrites it:\n%s", golden, diff)
	}
}
