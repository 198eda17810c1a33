package regokit

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
)

// Kind groups the refused built-ins by what a call would let Rego do.
// Compliance policies refuse Network, Environment and Clock unless their
// policy set allows the kind (its name is the word of the allow list);
// planning rules refuse every kind, since two plans of the same inputs
// must agree.
type Kind string

const (
	// Network: http.send and every net.* built-in.
	Network Kind = "network"
	// Environment: opa.runtime.
	Environment Kind = "environment"
	// Clock: time.now_ns, the wall clock.
	Clock Kind = "time"
	// Unrepeatable: the rest of what makes a result differ between runs of
	// the same input: chance, signing nonces, the clock or the network read
	// inside token, certificate and schema checks, the evaluation trace,
	// and the machine's time zone. Only planning rules refuse these.
	Unrepeatable Kind = "unrepeatable"
)

// Refusal is why a built-in is refused: its kind and, for planning
// rules, what the call does and what to use instead.
type Refusal struct {
	Kind Kind
	Why  string
}

// refused is the one list of refused built-ins; net.* is refused by prefix
// (see refusalOf), the pure CIDR helpers too, so the rule is simple to state.
var refused = map[string]Refusal{
	"http.send":              {Network, "reaches the network"},
	"opa.runtime":            {Environment, "reads the environment"},
	"time.now_ns":            {Clock, "reads the clock; use input.run.timestamp"},
	"rand.intn":              {Unrepeatable, "is random"},
	"uuid.rfc4122":           {Unrepeatable, "is random"},
	"trace":                  {Unrepeatable, "writes to the evaluation trace"},
	"io.jwt.decode_verify":   {Unrepeatable, "checks the token's times against the clock; decode it with io.jwt.decode, check the signature with io.jwt.verify_*, and compare its times with input.run.timestamp"},
	"io.jwt.encode_sign":     {Unrepeatable, "signs with random nonces, so its result changes from run to run"},
	"io.jwt.encode_sign_raw": {Unrepeatable, "signs with random nonces, so its result changes from run to run"},
	"json.match_schema":      {Unrepeatable, "may fetch the schemas it references over the network"},
	"json.verify_schema":     {Unrepeatable, "may fetch the schemas it references over the network"},
	"crypto.x509.parse_and_verify_certificates":              {Unrepeatable, "checks validity against the clock; parse with crypto.x509.parse_certificates and compare dates with input.run.timestamp"},
	"crypto.x509.parse_and_verify_certificates_with_options": {Unrepeatable, "checks validity against the clock; parse with crypto.x509.parse_certificates and compare dates with input.run.timestamp"},
}

var netFamily = Refusal{Network, "belongs to the net.* family, which planning rules may not use"}

// zonedTimeBuiltins take a time zone name, where "Local" reads the
// machine's zone.
var zonedTimeBuiltins = map[string]bool{
	"time.date": true, "time.clock": true, "time.weekday": true,
	"time.format": true, "time.add_date": true, "time.diff": true,
}

var localZone = Refusal{Unrepeatable, `is given the time zone "Local", the machine's zone; name the zone (e.g. "UTC" or "Europe/Paris")`}

// refusalOf looks a built-in up in the list.
func refusalOf(name string) (Refusal, bool) {
	if r, ok := refused[name]; ok {
		return r, true
	}
	if strings.HasPrefix(name, "net.") {
		return netFamily, true
	}
	return Refusal{}, false
}

// Sandbox is one caller's sandbox: the kinds of built-in it refuses and
// how it explains a refused call.
type Sandbox struct {
	// Refuse holds the refused kinds.
	Refuse map[Kind]bool
	// Summary is the summary of the diagnostic for a refused call.
	Summary string
	// Detail says why the call of name is refused and what to do.
	Detail func(name string, r Refusal) string
}

// Refuses says whether the sandbox refuses the built-in name, and why.
func (s Sandbox) Refuses(name string) (Refusal, bool) {
	r, ok := refusalOf(name)
	return r, ok && s.Refuse[r.Kind]
}

// Capabilities are OPA's capabilities without the refused built-ins, so
// a compiler never accepts a call Check would have missed. They are made
// afresh (OPA copies and sorts every built-in, about a millisecond): a
// caller with a fixed sandbox builds them once.
func (s Sandbox) Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if _, bad := s.Refuses(b.Name); !bad {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	return caps
}

// Check reports every refused call in m, by line, so the author sees
// why the file is refused rather than "undefined function". A literal
// "Local" zone given to a time built-in is refused with the Unrepeatable
// kind; a zone computed at evaluation cannot be seen here.
func (s Sandbox) Check(m *ast.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	report := func(op ast.Ref, args []*ast.Term, loc *ast.Location) {
		name := op.String()
		r, bad := s.Refuses(name)
		if !bad && s.Refuse[Unrepeatable] && zonedTimeBuiltins[name] && mentionsLocalZone(args) {
			r, bad = localZone, true
		}
		if bad {
			diags = append(diags, LocatedDiag(s.Summary, loc, s.Detail(name, r)))
		}
	}
	ast.WalkExprs(m, func(x *ast.Expr) bool {
		if x.IsCall() {
			report(x.Operator(), x.Operands(), x.Location)
		}
		return false
	})
	ast.WalkTerms(m, func(t *ast.Term) bool {
		if call, ok := t.Value.(ast.Call); ok && len(call) > 0 {
			if op, ok := call[0].Value.(ast.Ref); ok {
				report(op, call[1:], t.Location)
			}
		}
		return false
	})
	sort.SliceStable(diags, func(i, j int) bool { return diagLine(diags[i]) < diagLine(diags[j]) })
	return diags
}

// mentionsLocalZone reports whether a literal "Local" appears in args: the
// zone argument of the time built-ins, written in the rule.
func mentionsLocalZone(args []*ast.Term) bool {
	found := false
	for _, a := range args {
		ast.WalkTerms(a, func(t *ast.Term) bool {
			if s, ok := t.Value.(ast.String); ok && s == "Local" {
				found = true
			}
			return found
		})
	}
	return found
}
