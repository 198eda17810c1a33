// Command tenet plans and applies infrastructure written in the Terraform
// language, with every planning decision made by a Rego rule.
package main

import (
	"os"

	"github.com/tenetplan/tenet/cli"
	// Imported first in init order for its side effect: the collector is
	// off while the dependencies' init functions allocate.
	_ "github.com/tenetplan/tenet/internal/gcstart"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
