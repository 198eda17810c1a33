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

var factories = map[string]func(context.Context, *backend.Settings) (backend.Backend, hcl.Diagnostics){
	"pg": func(ctx context.Context, s *backend.Settings) (backend.Backend, hcl.Diagnostics) {
		cfg, diags := pg.ConfigFrom(s)
		if diags.HasErrors() {
			return nil, diags
		}
		b, more := pg.New(ctx, cfg)
		return nilIfNil(b, append(diags, more...))
	},
	"s3": func(ctx context.Context, s *backend.Settings) (backend.Backend, hcl.Diagnostics) {
		cfg, diags := s3.ConfigFrom(s)
		if diags.HasErrors() {
			return nil, diags
		}
		b, more := s3.New(ctx, cfg)
		return nilIfNil(b, append(diags, more...))
	},
	"http": func(ctx context.Context, s *backend.Settings) (backend.Backend, hcl.Diagnostics) {
		cfg, diags := http.ConfigFrom(s)
		if diags.HasErrors() {
			return nil, diags
		}
		b, more := http.New(ctx, cfg)
		return nilIfNil(b, append(diags, more...))
	},
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
