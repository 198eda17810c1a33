package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/policy"

	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/engine/plan/planfile"
)

const policyExitHelp = `Exit status: 0 when no mandatory policy failed (or every failure was
overridden), 3 when the policy check failed (a mandatory policy failed, or a
policy could not be loaded, compiled or evaluated), 1 for other errors.`

func newPolicyCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Check plans against compliance policies and test the policies",
	}
	cmd.AddCommand(newPolicyCheckCommand(g), newPolicyTestCommand(g))
	return cmd
}

func newPolicyCheckCommand(g *globals) *cobra.Command {
	var paths []string
	var format, override string
	var noColor bool
	cmd := &cobra.Command{
		Use:   "check [options] [PLAN.json | PLANFILE | -]",
		Short: "Check a plan against the policies",
		Long: `Check a plan against the compliance policies in .tenet/policy and every
-policy source. The plan is JSON as printed by "tenet show -json",
"tofu show -json" or "terraform show -json", or a tenet saved plan file.
With no argument or "-", the JSON is read from standard input.

` + policyExitHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			f, ok := policy.ParseFormat(format)
			if !ok {
				return u.errorf("Invalid output format", "The -format option takes human, json, junit or sarif; got %q.", format)
			}
			sources := policySources(paths)
			if len(sources) == 0 {
				return u.errorf("No policies to check", "There is no .tenet/policy directory and no -policy option. Give the policies with -policy=DIR (repeatable).")
			}
			name := "-"
			if len(args) == 1 {
				name = args[0]
			}
			js, err := readPlanJSON(cmd.InOrStdin(), name, g)
			if err != nil {
				return u.errorf("Cannot read the plan", "%s", err)
			}
			rep, diags := checkPolicies(contextOrBackground(cmd.Context()), g, sources, js)
			if f == policy.FormatHuman {
				u.diagnostics(diags)
			}
			if override != "" {
				rep.ApplyOverride(override, envValue(g.deps.Env, "USER"))
			}
			if err := policy.Write(u.out, rep, f, u.color); err != nil {
				return u.errorf("Cannot write the report", "%s", err)
			}
			if rep.Blocked() {
				return &exitError{policyExitCode}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&paths, "policy", nil, "policy directory, .rego file or OPA bundle (.tar.gz); repeatable")
	cmd.Flags().StringVar(&format, "format", "human", "output format: human, json, junit or sarif")
	cmd.Flags().StringVar(&override, "policy-override", "", "let soft-mandatory failures through, recording this reason")
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color in the output")
	return cmd
}

// readPlanJSON returns the plan JSON from a file (JSON or a tenet saved
// plan) or from standard input ("-").
func readPlanJSON(stdin io.Reader, name string, g *globals) ([]byte, error) {
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, err
	}
	if trimmed := bytes.TrimSpace(b); len(trimmed) > 0 && trimmed[0] == '{' {
		return trimmed, nil
	}
	if name == "-" {
		return nil, fmt.Errorf("standard input is not plan JSON; pipe the output of \"show -json PLANFILE\"")
	}
	p, err := planfile.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%s is neither plan JSON nor a tenet plan file (%s). For an OpenTofu or Terraform plan file, check the output of \"tofu show -json %s\"", name, err, name)
	}
	// The policies see the plan as it was before any earlier check.
	p.PolicyResults = nil
	return planjson.Marshal(p, schemaLookup{g.providerRegistry()}.types)
}

func newPolicyTestCommand(g *globals) *cobra.Command {
	var format, run string
	var coverage bool
	cmd := &cobra.Command{
		Use:   "test [options] [DIR | FILE | BUNDLE ...]",
		Short: "Run the Rego unit tests (*_test.rego) of policies",
		Long: `Run the test_ rules of *_test.rego files next to the policies (by default
in .tenet/policy), in the same sandbox the policies run in. -coverage
reports line coverage of the policy files.

Exit status: 0 when every test passed, 1 otherwise.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			f, ok := policy.ParseFormat(format)
			if !ok || f == policy.FormatSARIF {
				return u.errorf("Invalid output format", "The -format option of policy test takes human, json or junit; got %q.", format)
			}
			paths := args
			if len(paths) == 0 {
				paths = policySources(nil)
			}
			if len(paths) == 0 {
				return u.errorf("No policies to test", "There is no .tenet/policy directory; name the policy directory: tenet policy test DIR.")
			}
			rep, diags := policy.RunTests(contextOrBackground(cmd.Context()), policy.TestOptions{Paths: paths, Coverage: coverage, Run: run})
			if diags.HasErrors() {
				return u.fail(diags)
			}
			u.diagnostics(diags)
			if err := policy.WriteTestReport(u.out, rep, f); err != nil {
				return u.errorf("Cannot write the report", "%s", err)
			}
			if len(rep.Results) == 0 {
				return u.errorf("No policy tests", "No test_ rules were found in *_test.rego files under %v.", paths)
			}
			if rep.Failed() {
				return &exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "human", "output format: human, json or junit")
	cmd.Flags().BoolVar(&coverage, "coverage", false, "report line coverage of the policy files")
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose name matches this regular expression")
	return cmd
}
