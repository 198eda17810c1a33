package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
)

// answers reads what the person types at tenet's prompts, one line per
// answer, through one buffer for the whole run: answers piped in for
// several prompts (variables, then the approval) each reach their own
// prompt, where a fresh buffer per prompt would swallow the later ones.
type answers struct {
	mu sync.Mutex // held by the read in progress
	in *bufio.Reader
}

// newAnswers reads from in, or from the process's stdin when in is nil.
func newAnswers(in io.Reader) *answers {
	if in == nil {
		in = os.Stdin
	}
	return &answers{in: bufio.NewReader(in)}
}

// readLine waits for one line and returns it without its line ending.
// The end of input with nothing typed is io.EOF; an interrupt while
// waiting is ctx's error (the read itself is left to finish, since a
// read from a terminal cannot be cancelled, and the run is ending).
func (a *answers) readLine(ctx context.Context) (string, error) {
	type answer struct {
		line string
		err  error
	}
	if ctx == nil {
		ctx = context.Background()
	}
	got := make(chan answer, 1)
	go func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		line, err := a.in.ReadString('\n')
		if err == io.EOF && line != "" {
			err = nil // a last line without its newline is still an answer
		}
		got <- answer{strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), err}
	}()
	select {
	case a := <-got:
		return a.line, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// askYes prints prompt, reads one answer and reports whether it is
// "yes". The prompt's line is ended once the answer is read, whatever it
// was, as OpenTofu does.
func (a *answers) askYes(ctx context.Context, out io.Writer, prompt string) bool {
	yes, err := a.askYesOrFail(ctx, out, prompt)
	if err != nil {
		fmt.Fprintln(out) // these questions end their line whatever came
	}
	return yes
}

// askYesOrFail is askYes that also says why no answer came (the end of
// input), for questions where that must stop the command.
func (a *answers) askYesOrFail(ctx context.Context, out io.Writer, prompt string) (bool, error) {
	fmt.Fprint(out, prompt)
	line, err := a.readLine(ctx)
	if err == nil {
		fmt.Fprintln(out) // at the end of input OpenTofu ends no line
	}
	return err == nil && strings.TrimSpace(line) == "yes", err
}

// inputEnabled reports whether tenet may ask for input: -input (true
// unless given false) and TF_INPUT (when it is a false value, it wins
// even over -input=true, as in OpenTofu).
func inputEnabled(flag bool, env []string) bool {
	if !flag {
		return false
	}
	if v, err := strconv.ParseBool(lookupEnv(env, "TF_INPUT")); err == nil && !v {
		return false
	}
	return true
}

// promptForVariables asks for the root module's required variables that
// were given no value, in name order, as OpenTofu does before it plans.
// An answer is read as TF_VAR_ values are (literally for primitive types,
// as an expression otherwise); the end of input leaves the rest unset,
// for the usual "No value for required variable" errors.
func promptForVariables(ctx context.Context, g *globals, u *ui, root *config.Module, vals map[string]config.VariableValue) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range config.UnsetRequiredVariables(root, vals) {
		fmt.Fprint(u.out, variablePrompt(v, u.color))
		line, err := g.answers.readLine(ctx)
		if ctx.Err() != nil {
			fmt.Fprintln(u.out)
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to request interactive input",
				Detail: fmt.Sprintf("tenet was asking for a value for var.%s when it was interrupted.", v.Name)})
		}
		if err != nil {
			continue // nothing more to read: no answer
		}
		// OpenTofu ends the prompt's line once the answer is read.
		fmt.Fprintln(u.out)
		val, d := config.VariableValueFromText(v, line, config.ValueFromInput)
		diags = append(diags, d...)
		if !d.HasErrors() {
			vals[v.Name] = val
		}
	}
	return diags
}

// variablePrompt is the question for one variable: its name, its
// description (if any) indented, then "Enter a value:"; with colour,
// OpenTofu's bytes.
func variablePrompt(v *config.Variable, color bool) string {
	var b strings.Builder
	if color {
		b.WriteString(views.ANSIReset + views.ANSIBold + "var." + v.Name + views.ANSIReset + "\n")
	} else {
		b.WriteString("var." + v.Name + "\n")
	}
	if desc := strings.TrimSpace(v.Description); desc != "" {
		for _, line := range strings.Split(desc, "\n") {
			b.WriteString(strings.TrimRight("  "+line, " ") + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  " + views.Colorize("[bold]Enter a value:[reset] ", color))
	return b.String()
}
