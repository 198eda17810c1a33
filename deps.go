//go:build tools

package main

import (
	_ "github.com/dominikbraun/graph"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/hashicorp/hcl/v2"
	_ "github.com/open-policy-agent/opa/v1/rego"
	_ "github.com/spf13/cobra"
	_ "github.com/zclconf/go-cty/cty"
	_ "golang.org/x/tools/txtar"
	_ "gopkg.in/yaml.v3"
)
