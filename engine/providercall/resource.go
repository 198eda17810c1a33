package providercall

import (
	"context"

	"github.com/tenetplan/tenet/addrs"
)

// resourceCtxKey keys the resource a provider call is made for.
type resourceCtxKey struct{}

// WithResource tags ctx with the resource its provider calls are for.
func WithResource(ctx context.Context, addr addrs.ConfigResource) context.Context {
	return context.WithValue(ctx, resourceCtxKey{}, addr)
}

// ResourceFromContext gives the configuration address of the resource a
// provider call is made for, when the engine made it for one. Providers
// that answer differently per resource (the test command's overrides)
// read it; ordinary providers never need it.
func ResourceFromContext(ctx context.Context) (addrs.ConfigResource, bool) {
	addr, ok := ctx.Value(resourceCtxKey{}).(addrs.ConfigResource)
	return addr, ok
}
