// Package testfile parses the test language of `tenet test`: *.tftest.hcl
// (and *.tftest.json) files with their run blocks, assertions, variables,
// provider and mock_provider blocks and overrides, into a typed [File]
// whose expressions stay unevaluated, with hcl.Diagnostics naming
// file:line for everything malformed.
//
// It decides nothing about running: the CLI's test runner evaluates the
// expressions against the plan or state of each run and refuses, with a
// diagnostic naming the block, anything it does not carry out.
package testfile
