package backends

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/http"
	"github.com/tenetplan/tenet/state/backend/pg"
	"github.com/tenetplan/tenet/state/backend/s3"
)

type factory = func(context.Context, *backend.Settings) (backend.Backend, hcl.Diagnostics)

var factories = map[string]factory{
	"pg":   factoryOf(pg.ConfigFrom, pg.New),
	"s3":   factoryOf(s3.ConfigFrom, s3.New),
	"http": factoryOf(http.ConfigFrom, http.New),
}

// factoryOf makes a backend type's factory from its two steps: reading
// its configuration from the settings, then making the backend from that.
func factoryOf[C any, B backend.Backend](configFrom func(*backend.Settings) (C, hcl.Diagnostics), newBackend func(context.Context, C) (B, hcl.Diagnostics)) factory {
	return func(ctx context.Context, s *backend.Settings) (backend.Backend, hcl.Diagnostics) {
		cfg, diags := configFrom(s)
		if diags.HasErrors() {
			return nil, diags
		}
		b, more := newBackend(ctx, cfg)
		return nilIfNil(b, append(diags, more...))
	}
}

// nilIfNil keeps a typed nil pointer from becoming a non-nil interface.
func nilIfNil[T backend.Backend](b T, diags hcl.Diagnostics) (backend.Backend, hcl.Diagnostics) {
	if diags.HasErrors() {
		return nil, diags
	}
	return b, diags
}

// Types lists the remote backend types, sorted.
func Types() []string {
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Configure returns the backend of the given type configured from s.
func Configure(ctx context.Context, typ string, s *backend.Settings) (backend.Backend, hcl.Diagnostics) {
	f, ok := factories[typ]
	if !ok {
		return nil, backend.Errorf("Unsupported backend type",
			"tenet has no %q backend. The remote backends are %s; \"local\" (the default) keeps state in a file.", typ, strings.Join(Types(), ", "))
	}
	return f(ctx, s)
}
