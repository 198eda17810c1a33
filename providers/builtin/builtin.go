package builtin

import (
	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/local"
	"github.com/tenetplan/tenet/providers/builtin/null"
	"github.com/tenetplan/tenet/providers/builtin/random"
	"github.com/tenetplan/tenet/providers/builtin/terraform"
	timeprovider "github.com/tenetplan/tenet/providers/builtin/time"
)

// Registry returns the factories of every built-in provider, keyed by the
// source address configurations use for them: terraform.io/builtin/terraform
// and registry.opentofu.org/hashicorp/{local,null,random,time}.
func Registry() providers.Registry {
	factory := func(newFn func() providers.Interface) providers.Factory {
		return func() (providers.Interface, error) { return newFn(), nil }
	}
	return providers.Registry{
		addrs.NewBuiltInProvider("terraform"): factory(terraform.New),
		addrs.NewDefaultProvider("local"):     factory(local.New),
		addrs.NewDefaultProvider("null"):      factory(null.New),
		addrs.NewDefaultProvider("random"):    factory(random.New),
		addrs.NewDefaultProvider("time"):      factory(timeprovider.New),
	}
}
