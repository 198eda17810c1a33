package policy

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// ReportFormatVersion is the format_version of a report's JSON.
const ReportFormatVersion = "1"

// Status is the outcome of one policy.
type Status string

const (
	StatusPass Status = "pass"
	// StatusFail is a mandatory policy with messages.
	StatusFail Status = "fail"
	// StatusWarn is an advisory policy with messages.
	StatusWarn Status = "warn"
	// StatusOverridden is a soft-mandatory failure let through by an override.
	StatusOverridden Status = "overridden"
	// StatusError is a policy that could not be evaluated; it always blocks.
	StatusError Status = "error"
)

// Report is the result of checking one plan. Its JSON is what the saved
// plan keeps under "tenet"."policy".
type Report struct {
	FormatVersion string   `json:"format_version"`
	Results       []Result `json:"results"`
	// Errors are problems not tied to one policy (a file that does not
	// parse or compile, input that is not a plan). They always block.
	Errors   []Problem `json:"errors,omitempty"`
	Override *Override `json:"override,omitempty"`
	Summary  Summary   `json:"summary"`
}

// Result is the outcome of one policy.
type Result struct {
	Policy
	Status   Status    `json:"status"`
	Messages []Message `json:"messages,omitempty"`
	Error    *Problem  `json:"error,omitempty"`
}

// Message is one deny/warn/violation entry.
type Message struct {
	Msg string `json:"msg"`
	// Addresses are the resource addresses the policy named, from the
	// entry's "address" (string) or "addresses" (list) keys.
	Addresses []string `json:"addresses,omitempty"`
	// Details are the entry's other keys.
	Details map[string]any `json:"details,omitempty"`
}

// Problem is an error with its place in a policy file.
type Problem struct {
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

func (p Problem) String() string {
	if p.File == "" {
		return p.Message
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
}

// Override records that soft-mandatory failures were let through.
type Override struct {
	Reason string `json:"reason"`
	User   string `json:"user,omitempty"`
	// Policies names each overridden policy as "NAME (FILE:LINE)".
	Policies []string `json:"policies"`
}

// Summary counts results by status.
type Summary struct {
	Policies   int  `json:"policies"`
	Passed     int  `json:"passed"`
	Failed     int  `json:"failed"`
	Warnings   int  `json:"warnings"`
	Overridden int  `json:"overridden"`
	Errors     int  `json:"errors"`
	Blocked    bool `json:"blocked"`
}

func (r *Report) summarize() {
	s := Summary{Policies: len(r.Results), Errors: len(r.Errors)}
	for _, res := range r.Results {
		switch res.Status {
		case StatusPass:
			s.Passed++
		case StatusFail:
			s.Failed++
		case StatusWarn:
			s.Warnings++
		case StatusOverridden:
			s.Overridden++
		case StatusError:
			s.Errors++
		}
	}
	s.Blocked = s.Failed > 0 || s.Errors > 0
	r.Summary = s
}

// Blocked reports whether the plan must not be applied: a mandatory
// policy failed and was not overridden, or something could not be
// checked at all.
func (r *Report) Blocked() bool {
	if len(r.Errors) > 0 {
		return true
	}
	for _, res := range r.Results {
		if res.Status == StatusFail || res.Status == StatusError {
			return true
		}
	}
	return false
}

// Overridable reports whether every blocking result is a soft-mandatory
// failure, so an override would unblock the plan.
func (r *Report) Overridable() bool {
	if len(r.Errors) > 0 {
		return false
	}
	for _, res := range r.Results {
		if res.Status == StatusError || (res.Status == StatusFail && res.Level != SoftMandatory) {
			return false
		}
	}
	return true
}

// ApplyOverride lets soft-mandatory failures through and records the
// reason. Hard-mandatory failures and errors are untouched. It reports
// whether anything was overridden; nothing is recorded otherwise.
func (r *Report) ApplyOverride(reason, user string) bool {
	var names []string
	for i := range r.Results {
		res := &r.Results[i]
		if res.Status == StatusFail && res.Level == SoftMandatory {
			res.Status = StatusOverridden
			names = append(names, fmt.Sprintf("%s (%s)", res.Name, res.Location()))
		}
	}
	if len(names) == 0 {
		return false
	}
	if r.Override == nil {
		r.Override = &Override{Reason: reason, User: user}
	}
	r.Override.Policies = append(r.Override.Policies, names...)
	r.summarize()
	return true
}

// CarryOverride applies an override recorded with an earlier check of
// the same plan (at plan time) to this one: it lets through the
// soft-mandatory failures of the policies prev names, and only those, so
// a policy that newly fails needs an override of its own. It reports
// whether anything was overridden.
func (r *Report) CarryOverride(prev *Override) bool {
	if prev == nil {
		return false
	}
	named := make(map[string]bool, len(prev.Policies))
	for _, n := range prev.Policies {
		named[n] = true
	}
	var names []string
	for i := range r.Results {
		res := &r.Results[i]
		name := fmt.Sprintf("%s (%s)", res.Name, res.Location())
		if res.Status == StatusFail && res.Level == SoftMandatory && named[name] {
			res.Status = StatusOverridden
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return false
	}
	if r.Override == nil {
		r.Override = &Override{Reason: prev.Reason, User: prev.User}
	}
	r.Override.Policies = append(r.Override.Policies, names...)
	r.summarize()
	return true
}

// Messages counts the messages of results with the given status.
func (r *Report) count(st Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Status == st {
			n++
		}
	}
	return n
}

// MarshalJSON encodes the report (compact, keys in struct order).
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	r.summarize()
	if r.FormatVersion == "" {
		r.FormatVersion = ReportFormatVersion
	}
	if r.Results == nil {
		r.Results = []Result{}
	}
	return json.Marshal((*plain)(r))
}

// DecodeReport reads a report back (from a saved plan).
func DecodeReport(raw []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the policy results are not readable: %w", err)
	}
	if r.FormatVersion != ReportFormatVersion {
		return nil, fmt.Errorf("the policy results have format version %q; this tenet reads %q", r.FormatVersion, ReportFormatVersion)
	}
	r.summarize()
	return &r, nil
}

// ReportFromDiagnostics is the report of a policy set that could not be
// loaded: every error diagnostic becomes a blocking problem.
func ReportFromDiagnostics(diags hcl.Diagnostics) *Report {
	r := &Report{FormatVersion: ReportFormatVersion, Results: []Result{}}
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		p := Problem{Message: d.Summary + ": " + d.Detail}
		if d.Subject != nil {
			p.File, p.Line, p.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
			p.Message = d.Summary + ": " + trimLocation(d.Detail, p.File, p.Line)
		}
		r.Errors = append(r.Errors, p)
	}
	sort.SliceStable(r.Errors, func(i, j int) bool {
		if r.Errors[i].File != r.Errors[j].File {
			return r.Errors[i].File < r.Errors[j].File
		}
		return r.Errors[i].Line < r.Errors[j].Line
	})
	r.summarize()
	return r
}

func trimLocation(detail, file string, line int) string {
	prefix := fmt.Sprintf("%s:%d: ", file, line)
	if len(detail) >= len(prefix) && detail[:len(prefix)] == prefix {
		return detail[len(prefix):]
	}
	return detail
}
