package providercall

import (
	"context"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/tenetplan/tenet/providers"
)

// ValidationCache asks the provider to validate each distinct
// configuration of one resource's instances once. Validation depends on
// the configuration alone (the provider is not consulted about anything
// else), so count = 5000 instances with one configuration cost one
// ValidateResourceConfig call, not 5000 plugin round trips. Only plugins
// are worth it: in process, validating costs less than the key.
type ValidationCache struct {
	mu sync.Mutex
	m  map[string]providers.Diagnostics
}

func (c *ValidationCache) Validate(ctx context.Context, p providers.Interface, typ string, config cty.Value) providers.Diagnostics {
	if r, ok := p.(outOfProcess); !ok || !r.OutOfProcess() {
		return p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: typ, Config: config}).Diagnostics
	}
	key, err := msgpack.Marshal(config, config.Type())
	if err != nil {
		return p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: typ, Config: config}).Diagnostics
	}
	c.mu.Lock()
	d, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok {
		return d
	}
	d = p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: typ, Config: config}).Diagnostics
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]providers.Diagnostics{}
	}
	c.m[string(key)] = d
	c.mu.Unlock()
	return d
}
