package backend

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Settings are the arguments of a backend block (plus -backend-config
// overrides), read by name. Each getter falls back to environment
// variables when the argument is not set, the way OpenTofu's backends do,
// and records the name as known, so Check can reject the rest.
type Settings struct {
	vals   map[string]cty.Value
	ranges map[string]hcl.Range
	known  map[string]bool
	diags  hcl.Diagnostics
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string
}

// NewSettings returns settings holding vals.
func NewSettings(vals map[string]cty.Value) *Settings {
	return &Settings{vals: vals, ranges: map[string]hcl.Range{}, known: map[string]bool{}, Getenv: os.Getenv}
}

// DecodeBody reads the arguments of a backend block body. Backend blocks
// cannot refer to anything, so the expressions are evaluated without a
// context.
func DecodeBody(body hcl.Body) (*Settings, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	s := NewSettings(map[string]cty.Value{})
	for name, a := range attrs {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		s.vals[name] = v
		s.ranges[name] = a.Expr.Range()
	}
	return s, diags
}

// Set overrides one argument (-backend-config=name=value).
func (s *Settings) Set(name string, v cty.Value) { s.vals[name] = v }

// value returns the argument name converted to ty, if set and not null.
func (s *Settings) value(name string, ty cty.Type) (cty.Value, bool) {
	s.known[name] = true
	v, ok := s.vals[name]
	if !ok || v.IsNull() {
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() {
		s.fail(name, "The value must be known when the backend is configured.")
		return cty.NilVal, false
	}
	c, err := convert.Convert(v, ty)
	if err != nil {
		s.fail(name, fmt.Sprintf("Expected a %s: %s.", ty.FriendlyName(), err))
		return cty.NilVal, false
	}
	return c, true
}

func (s *Settings) env(envs []string) (string, string, bool) {
	for _, e := range envs {
		if v := s.Getenv(e); v != "" {
			return e, v, true
		}
	}
	return "", "", false
}

func (s *Settings) fail(name, detail string) {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid value for backend argument %q", name), Detail: detail}
	if r, ok := s.ranges[name]; ok {
		d.Subject = r.Ptr()
	}
	s.diags = append(s.diags, d)
}

// failEnv reports that environment variable e holds v where it must
// hold what want says.
func (s *Settings) failEnv(e, v, want string) {
	s.diags = append(s.diags, &hcl.Diagnostic{Severity: hcl.DiagError,
		Summary: fmt.Sprintf("Invalid value in environment variable %s", e),
		Detail:  fmt.Sprintf("%s must be %s, not %q.", e, want, v)})
}

// String returns the argument, else the first set environment variable,
// else def.
func (s *Settings) String(name, def string, envs ...string) string {
	if v, ok := s.value(name, cty.String); ok {
		return v.AsString()
	}
	if _, v, ok := s.env(envs); ok {
		return v
	}
	return def
}

// Bool is String for booleans; environment values parse as Go booleans.
func (s *Settings) Bool(name string, def bool, envs ...string) bool {
	if v, ok := s.value(name, cty.Bool); ok {
		return v.True()
	}
	if e, v, ok := s.env(envs); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			s.failEnv(e, v, "true or false")
			return def
		}
		return b
	}
	return def
}

// Int is String for whole numbers.
func (s *Settings) Int(name string, def int, envs ...string) int {
	if v, ok := s.value(name, cty.Number); ok {
		i, acc := v.AsBigFloat().Int64()
		if acc != 0 || i < 0 || i > 1<<31 {
			s.fail(name, "Expected a whole number from 0 up.")
			return def
		}
		return int(i)
	}
	if e, v, ok := s.env(envs); ok {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 {
			s.failEnv(e, v, "a whole number from 0 up")
			return def
		}
		return i
	}
	return def
}

// Strings returns a list of strings argument, else the environment
// variable split on commas, else nil.
func (s *Settings) Strings(name string, envs ...string) []string {
	if v, ok := s.value(name, cty.List(cty.String)); ok {
		var out []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if !e.IsNull() {
				out = append(out, e.AsString())
			}
		}
		return out
	}
	if _, v, ok := s.env(envs); ok {
		return strings.Split(v, ",")
	}
	return nil
}

// StringMap returns an object or map of strings argument.
func (s *Settings) StringMap(name string) map[string]string {
	v, ok := s.value(name, cty.Map(cty.String))
	if !ok {
		return nil
	}
	out := map[string]string{}
	for k, e := range v.AsValueMap() {
		if !e.IsNull() {
			out[k] = e.AsString()
		}
	}
	return out
}

// Has reports whether the argument is set (and marks it known).
func (s *Settings) Has(name string) bool {
	s.known[name] = true
	v, ok := s.vals[name]
	return ok && !v.IsNull()
}

// Check returns the diagnostics of the getters so far plus one for each
// argument no getter asked for, naming the backend type.
func (s *Settings) Check(backendType string) hcl.Diagnostics {
	diags := s.diags
	var unknown []string
	for name := range s.vals {
		if !s.known[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		d := &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Unsupported backend argument",
			Detail:  fmt.Sprintf("The %q backend has no argument named %q. Remove it, or check its spelling in docs/backends.md.", backendType, name)}
		if r, ok := s.ranges[name]; ok {
			d.Subject = r.Ptr()
		}
		diags = append(diags, d)
	}
	return diags
}
