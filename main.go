// Command tenet plans and applies infrastructure written in the Terraform
// language, with every planning decision made by a Rego rule.
package main

import (
	"os"

	"github.com/tenetplan/tenet/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
