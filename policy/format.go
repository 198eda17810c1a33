package policy

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Format is an output format of a report.
type Format string

const (
	FormatHuman Format = "human"
	FormatJSON  Format = "json"
	FormatJUnit Format = "junit"
	FormatSARIF Format = "sarif"
)

// ParseFormat accepts human, json, junit or sarif.
func ParseFormat(s string) (Format, bool) {
	switch f := Format(strings.ToLower(s)); f {
	case FormatHuman, FormatJSON, FormatJUnit, FormatSARIF:
		return f, true
	}
	return "", false
}

// Write renders r in format f.
func Write(w io.Writer, r *Report, f Format, color bool) error {
	switch f {
	case FormatJSON:
		return writeJSON(w, r)
	case FormatJUnit:
		return WriteJUnit(w, r)
	case FormatSARIF:
		return WriteSARIF(w, r)
	}
	return WriteHuman(w, r, color)
}

// writeJSON writes v as indented JSON and a newline: the json format of
// policy and test reports, and SARIF's.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteHuman renders r for a terminal: one block per policy that did not
// pass, then a summary line.
func WriteHuman(w io.Writer, r *Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var b strings.Builder
	b.WriteString("\nPolicy check:\n")
	for _, p := range r.Errors {
		fmt.Fprintf(&b, "  %s %s\n", paint("1;31", "ERROR"), p)
	}
	for _, res := range r.Results {
		var tag string
		switch res.Status {
		case StatusPass:
			continue
		case StatusFail:
			tag = paint("1;31", "FAIL ")
		case StatusWarn:
			tag = paint("1;33", "WARN ")
		case StatusOverridden:
			tag = paint("1;35", "OVERRIDDEN")
		case StatusError:
			tag = paint("1;31", "ERROR")
		}
		fmt.Fprintf(&b, "  %s %s [%s] (%s)\n", tag, res.Name, res.Level, res.Location())
		if res.Error != nil {
			fmt.Fprintf(&b, "        %s\n", res.Error)
		}
		for _, m := range res.Messages {
			fmt.Fprintf(&b, "        - %s\n", m.Msg)
		}
	}
	s := r.Summary
	fmt.Fprintf(&b, "  %d policies: %d passed, %d failed, %d warnings", s.Policies, s.Passed, s.Failed, s.Warnings)
	if s.Overridden > 0 {
		fmt.Fprintf(&b, ", %d overridden", s.Overridden)
	}
	if s.Errors > 0 {
		fmt.Fprintf(&b, ", %d errors", s.Errors)
	}
	b.WriteString(".\n")
	if o := r.Override; o != nil {
		who := ""
		if o.User != "" {
			who = " by " + o.User
		}
		fmt.Fprintf(&b, "  Policy override%s: %q\n", who, o.Reason)
	}
	if r.Blocked() {
		if r.Overridable() {
			b.WriteString(paint("1", "  Soft-mandatory policies failed: the plan cannot be applied unless overridden with -policy-override=\"REASON\".") + "\n")
		} else {
			b.WriteString(paint("1", "  Mandatory policies failed: the plan cannot be applied.") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JUnit XML: one test suite per policy file, one test case per policy.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// write totals the suites and writes the report as XML.
func (out *junitSuites) write(w io.Writer) error {
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit renders r as JUnit XML. Mandatory failures and errors are
// <failure>/<error>; advisory warnings and overridden failures pass with
// their messages in <system-out>, so CI shows them without going red.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "tenet policy check"}
	index := map[string]int{}
	suite := func(file string) *junitSuite {
		i, ok := index[file]
		if !ok {
			i = len(out.Suites)
			index[file] = i
			out.Suites = append(out.Suites, junitSuite{Name: file})
		}
		return &out.Suites[i]
	}
	for _, p := range r.Errors {
		s := suite(p.File)
		s.Tests++
		s.Errors++
		s.Cases = append(s.Cases, junitCase{Name: "load", Classname: p.File, Error: &junitProblem{Message: p.Message, Type: "error", Text: p.String()}})
	}
	for _, res := range r.Results {
		s := suite(res.File)
		s.Tests++
		c := junitCase{Name: fmt.Sprintf("%s (line %d)", res.Name, res.Line), Classname: res.Package + "." + res.Rule}
		text := messagesText(res)
		switch res.Status {
		case StatusFail:
			s.Failures++
			c.Failure = &junitProblem{Message: fmt.Sprintf("%d %s message(s) from a %s policy", len(res.Messages), res.Kind, res.Level), Type: string(res.Level), Text: text}
		case StatusError:
			s.Errors++
			c.Error = &junitProblem{Message: res.Error.Message, Type: "error", Text: res.Error.String()}
		case StatusWarn, StatusOverridden:
			c.SystemOut = strings.ToUpper(string(res.Status)) + "\n" + text
		}
		s.Cases = append(s.Cases, c)
	}
	return out.write(w)
}

func messagesText(res Result) string {
	var b strings.Builder
	for _, m := range res.Messages {
		b.WriteString(m.Msg)
		if len(m.Addresses) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(m.Addresses, ", "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// SARIF 2.1.0: one rule per policy, one result per message (or error).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	Name             string         `json:"name,omitempty"`
	ShortDescription *sarifText     `json:"shortDescription,omitempty"`
	Properties       map[string]any `json:"properties,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID       string            `json:"ruleId"`
	RuleIndex    int               `json:"ruleIndex"`
	Level        string            `json:"level"`
	Kind         string            `json:"kind,omitempty"`
	Message      sarifText         `json:"message"`
	Locations    []sarifLocation   `json:"locations,omitempty"`
	Suppressions []sarifSuppressed `json:"suppressions,omitempty"`
	Properties   map[string]any    `json:"properties,omitempty"`
}

type sarifSuppressed struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind,omitempty"`
}

// WriteSARIF renders r as SARIF 2.1.0. Each message points at the policy
// rule that produced it (the only file tenet can name) and lists the
// resource addresses as logical locations. Mandatory failures and errors
// are "error", advisory ones "warning"; overridden ones carry an external
// suppression with the override reason.
func WriteSARIF(w io.Writer, r *Report) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "tenet-policy", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	ruleIndex := map[string]int{}
	addRule := func(id, name, desc string, props map[string]any) int {
		if i, ok := ruleIndex[id]; ok {
			return i
		}
		rule := sarifRule{ID: id, Name: name, Properties: props}
		if desc != "" {
			rule.ShortDescription = &sarifText{Text: desc}
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
		ruleIndex[id] = len(run.Tool.Driver.Rules) - 1
		return ruleIndex[id]
	}
	physical := func(file string, line, col int) *sarifPhysical {
		if file == "" {
			return nil
		}
		p := &sarifPhysical{ArtifactLocation: sarifArtifact{URI: file}}
		if line > 0 {
			p.Region = &sarifRegion{StartLine: line, StartColumn: col}
		}
		return p
	}
	for _, p := range r.Errors {
		i := addRule("tenet/policy-load", "policy-load", "A policy file could not be loaded or compiled", nil)
		res := sarifResult{RuleID: "tenet/policy-load", RuleIndex: i, Level: "error", Message: sarifText{Text: p.Message}}
		if ph := physical(p.File, p.Line, p.Column); ph != nil {
			res.Locations = []sarifLocation{{PhysicalLocation: ph}}
		}
		run.Results = append(run.Results, res)
	}
	for _, res := range r.Results {
		id := fmt.Sprintf("%s.%s@%s", res.Package, res.Rule, res.Location())
		i := addRule(id, res.Name, res.Description, map[string]any{"enforcement": res.Level, "kind": res.Kind})
		switch res.Status {
		case StatusPass:
			continue
		case StatusError:
			run.Results = append(run.Results, sarifResult{RuleID: id, RuleIndex: i, Level: "error", Message: sarifText{Text: res.Error.Message},
				Locations: []sarifLocation{{PhysicalLocation: physical(res.Error.File, res.Error.Line, res.Error.Column)}}})
			continue
		}
		level := "warning"
		if res.Level.Mandatory() && res.Status != StatusWarn {
			level = "error"
		}
		for _, m := range res.Messages {
			sr := sarifResult{RuleID: id, RuleIndex: i, Level: level, Message: sarifText{Text: m.Msg}}
			loc := sarifLocation{PhysicalLocation: physical(res.File, res.Line, 0)}
			for _, a := range m.Addresses {
				loc.LogicalLocations = append(loc.LogicalLocations, sarifLogical{FullyQualifiedName: a, Kind: "resource"})
			}
			sr.Locations = []sarifLocation{loc}
			if res.Status == StatusOverridden && r.Override != nil {
				sr.Suppressions = []sarifSuppressed{{Kind: "external", Justification: r.Override.Reason}}
			}
			run.Results = append(run.Results, sr)
		}
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	return writeJSON(w, log)
}
