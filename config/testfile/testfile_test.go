package testfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// summary is what a parsed file says, in a form tests can compare.
type summary struct {
	Runs      []string // name:command:asserts:expect_failures
	Variables []string
	Mocks     []string
	Overrides []string
	Module    string
	Plan      string
}

func summarize(f *File) summary {
	var s summary
	for _, r := range f.Runs {
		var ef []string
		for _, t := range r.ExpectFailures {
			ef = append(ef, t.RootName())
		}
		line := r.Name + ":" + r.Command + ":" + strings.Repeat("a", len(r.Asserts)) + ":" + strings.Join(ef, ",")
		s.Runs = append(s.Runs, line)
		if r.Module != nil {
			s.Module = r.Module.Source
		}
		if r.PlanOptions != nil {
			s.Plan = r.PlanOptions.Mode
			if !r.PlanOptions.Refresh {
				s.Plan += ",norefresh"
			}
		}
		for _, o := range r.Overrides {
			s.Overrides = append(s.Overrides, r.Name+":"+string(o.Kind))
		}
	}
	for name := range f.Variables {
		s.Variables = append(s.Variables, name)
	}
	for _, m := range f.MockProviders {
		line := m.Key()
		for _, mr := range m.Resources {
			line += "/" + mr.Type
		}
		s.Mocks = append(s.Mocks, line)
	}
	for _, o := range f.Overrides {
		s.Overrides = append(s.Overrides, string(o.Kind))
	}
	return s
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    summary
		wantErr string // a diagnostic summary, when the file is invalid
	}{
		{
			name: "runs default to apply",
			src: `
variables {
  a = 1
}
run "one" {
  assert {
    condition     = var.a == 1
    error_message = "x"
  }
}
run "two" {
  command = plan
  expect_failures = [var.a, output.b]
}`,
			want: summary{Runs: []string{"one:apply:a:", "two:plan::var,output"}, Variables: []string{"a"}},
		},
		{
			name: "module, plan options, mocks and overrides",
			src: `
mock_provider "aws" {
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }
}
override_data {
  target = data.aws_region.r
  values = { name = "eu" }
}
run "m" {
  module {
    source = "./modules/x"
  }
  plan_options {
    mode    = refresh-only
    refresh = false
  }
  override_resource {
    target = aws_s3_bucket.b
  }
}`,
			want: summary{Runs: []string{"m:apply::"}, Module: "./modules/x", Plan: "refresh-only,norefresh",
				Mocks: []string{"aws/aws_s3_bucket"}, Overrides: []string{"m:override_resource", "override_data"}},
		},
		{name: "bad command", src: `run "x" { command = destroy }`, wantErr: `Invalid "command" keyword`},
		{name: "quoted command", src: `run "x" { command = "plan" }`, wantErr: `Invalid "command" keyword`},
		{name: "duplicate run", src: "run \"x\" {}\nrun \"x\" {}", wantErr: `Duplicate "run" block names`},
		{name: "unknown block", src: `check "x" {}`, wantErr: "Unsupported block type"},
		{name: "unknown run argument", src: `run "x" { state_keyz = "a" }`, wantErr: "Unsupported argument"},
		{name: "assert needs a message", src: "run \"x\" {\n  assert {\n    condition = true\n  }\n}", wantErr: "Missing required argument"},
		{name: "expect_failures needs references", src: `run "x" { expect_failures = ["var.a"] }`, wantErr: "Invalid expect_failures reference"},
		{name: "bad mode", src: "run \"x\" {\n  plan_options {\n    mode = destroy\n  }\n}", wantErr: `Invalid "mode" value`},
		{name: "override needs a target", src: `override_resource { values = {} }`, wantErr: "Missing required argument"},
		{name: "two variables blocks", src: "variables {}\nvariables {}", wantErr: `Multiple "variables" blocks`},
		{name: "bad run name", src: `run "1x" {}`, wantErr: "Invalid run block name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _, diags := Parse([]byte(tt.src), "x.tftest.hcl")
			if tt.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("no error, want %q", tt.wantErr)
				}
				for _, d := range diags {
					if d.Summary == tt.wantErr {
						if d.Subject == nil || d.Subject.Filename != "x.tftest.hcl" {
							t.Errorf("diagnostic %q has no source range", d.Summary)
						}
						return
					}
				}
				t.Fatalf("diagnostics %v, want %q", diags, tt.wantErr)
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.want, summarize(f)); diff != "" {
				t.Errorf("parsed file (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseJSON(t *testing.T) {
	f, _, diags := Parse([]byte(`{"run": {"x": {"command": "plan"}}}`), "x.tftest.json")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(f.Runs) != 1 || f.Runs[0].Name != "x" {
		t.Fatalf("runs = %+v", f.Runs)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`run "x" { command = plan }`))
	f.Add([]byte("variables { a = 1 }\nrun \"y\" {\n assert {\n condition = var.a == 1\n error_message = \"m\"\n }\n expect_failures = [var.a]\n}"))
	f.Add([]byte(`mock_provider "aws" { mock_data "x" { defaults = {} } }`))
	f.Add([]byte(`run "m" { module { source = "./x" } plan_options { target = [a.b] replace = [a.b] } }`))
	f.Add([]byte(`override_module { target = module.x outputs = {} }`))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _, diags := Parse(src, "fuzz.tftest.hcl")
		if !diags.HasErrors() && file == nil {
			t.Fatal("no file and no error")
		}
	})
}

// A file with a syntax error is still decoded, so that its other mistakes
// are reported with the syntax error (as OpenTofu reports them).
func TestParseDecodesPastSyntaxErrors(t *testing.T) {
	src := "run \"broken\" {\n  assert {\n    condition = output.x ==\n  }\n}\n"
	_, _, diags := Parse([]byte(src), "broken.tftest.hcl")
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	want := []string{"Invalid expression", "Missing required argument"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
