// Command startupref is the reference tenet's start-up is measured
// against: a program that links OPA's rego package (as tenet must) and
// does nothing else. Its start-up is the floor for any program embedding
// OPA; what tenet takes beyond it is tenet's own fixed cost. The start-up
// benchmark in cli builds and runs it next to tenet (see
// docs/performance.md).
package main

import (
	"fmt"
	"os"

	"github.com/open-policy-agent/opa/v1/rego"
)

// printing the options' type keeps the import, so the linker keeps rego
// and every package it pulls in, with their init functions.
func main() {
	fmt.Fprintf(os.Stdout, "startupref %T\n", rego.Module)
}
