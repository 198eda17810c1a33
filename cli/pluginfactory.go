package cli

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
)

// pluginFactory starts one lazyPlugin per call. cacheFile, when not "",
// holds the provider's schema from an earlier run.
// The first schema a process returns is shared with the later instances
// of the run too.
func pluginFactory(cfg plugin.Config, cacheFile string) providers.Factory {
	sh := &sharedSchema{}
	var once sync.Once
	return func() (providers.Interface, error) {
		once.Do(func() { sh.set(readSchemaCache(cacheFile)) })
		cached := sh.get()
		c := cfg
		c.CachedSchema = cached
		return &lazyPlugin{cfg: c, cacheFile: cacheFile, cached: cached, shared: sh}, nil
	}
}

// sharedSchema is the schema one factory's instances share.
type sharedSchema struct {
	mu sync.Mutex
	s  *providers.GetProviderSchemaResponse
}

func (sh *sharedSchema) get() *providers.GetProviderSchemaResponse {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.s
}

func (sh *sharedSchema) set(s *providers.GetProviderSchemaResponse) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.s == nil {
		sh.s = s
	}
}

// lazyPlugin launches its plugin process on the first call that needs
// it. A schema request answered from the cache (when the provider says a
// cached schema may be used) launches nothing, so the engine's schema
// lookups cost no process when the schema is cached.
type lazyPlugin struct {
	cfg       plugin.Config
	cacheFile string
	cached    *providers.GetProviderSchemaResponse
	shared    *sharedSchema

	mu     sync.Mutex
	client *plugin.Client
	err    error
	closed bool
}

func (l *lazyPlugin) start() (providers.Interface, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client == nil && l.err == nil {
		l.client, l.err = plugin.New(l.cfg)
	}
	if l.err != nil {
		return nil, l.err
	}
	return l.client, nil
}

func startDiags(err error) providers.Diagnostics {
	return providers.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to start provider", Detail: err.Error()}}
}

func (l *lazyPlugin) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	s := l.cached
	if s == nil {
		// Another instance of this run may have asked since.
		s = l.shared.get()
	}
	if s != nil && s.GetProviderSchemaOptional {
		return *s
	}
	c, err := l.start()
	if err != nil {
		return providers.GetProviderSchemaResponse{Diagnostics: startDiags(err)}
	}
	resp := c.GetProviderSchema(ctx)
	if !resp.Diagnostics.HasErrors() {
		if l.cacheFile != "" && l.cached == nil {
			writeSchemaCache(l.cacheFile, resp)
		}
		l.shared.set(&resp)
	}
	return resp
}

func (l *lazyPlugin) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	c, err := l.start()
	if err != nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: startDiags(err)}
	}
	return c.ValidateProviderConfig(ctx, req)
}

func (l *lazyPlugin) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	c, err := l.start()
	if err != nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: startDiags(err)}
	}
	return c.ValidateResourceConfig(ctx, req)
}

func (l *lazyPlugin) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	c, err := l.start()
	if err != nil {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: startDiags(err)}
	}
	return c.ValidateDataResourceConfig(ctx, req)
}

func (l *lazyPlugin) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	c, err := l.start()
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: startDiags(err)}
	}
	return c.ConfigureProvider(ctx, req)
}

func (l *lazyPlugin) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	c, err := l.start()
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: startDiags(err)}
	}
	return c.UpgradeResourceState(ctx, req)
}

func (l *lazyPlugin) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	c, err := l.start()
	if err != nil {
		return providers.ReadResourceResponse{Diagnostics: startDiags(err)}
	}
	return c.ReadResource(ctx, req)
}

func (l *lazyPlugin) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	c, err := l.start()
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: startDiags(err)}
	}
	return c.PlanResourceChange(ctx, req)
}

func (l *lazyPlugin) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	c, err := l.start()
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: startDiags(err)}
	}
	return c.ApplyResourceChange(ctx, req)
}

func (l *lazyPlugin) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	c, err := l.start()
	if err != nil {
		return providers.ImportResourceStateResponse{Diagnostics: startDiags(err)}
	}
	return c.ImportResourceState(ctx, req)
}

func (l *lazyPlugin) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	c, err := l.start()
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: startDiags(err)}
	}
	return c.ReadDataSource(ctx, req)
}

func (l *lazyPlugin) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	c, err := l.start()
	if err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: startDiags(err)}
	}
	return c.MoveResourceState(ctx, req)
}

func (l *lazyPlugin) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	c, err := l.start()
	if err != nil {
		return providers.GetFunctionsResponse{Diagnostics: startDiags(err)}
	}
	return c.GetFunctions(ctx)
}

func (l *lazyPlugin) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	c, err := l.start()
	if err != nil {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: err.Error()}}
	}
	return c.CallFunction(ctx, req)
}

// StopProvider reaches only a running process: there is nothing to stop
// otherwise.
func (l *lazyPlugin) StopProvider(ctx context.Context) providers.StopProviderResponse {
	l.mu.Lock()
	c := l.client
	l.mu.Unlock()
	if c == nil {
		return providers.StopProviderResponse{}
	}
	return c.StopProvider(ctx)
}

func (l *lazyPlugin) Close(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client == nil || l.closed {
		l.closed = true
		return nil
	}
	l.closed = true
	return l.client.Close(ctx)
}

// readSchemaCache returns the cached schema, or nil when there is none
// or it cannot be read (the cache is only an optimisation).
func readSchemaCache(path string) *providers.GetProviderSchemaResponse {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s, err := decodeSchemaCache(b)
	if err != nil {
		return nil
	}
	return s
}

// writeSchemaCache stores a schema for later runs, atomically; failures
// only cost the next run a launch.
func writeSchemaCache(path string, s providers.GetProviderSchemaResponse) {
	b, err := encodeSchemaCache(s)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schema-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// OutOfProcess tells the engine that calls wait on another process, so
// it keeps up to -parallelism of them in flight.
func (l *lazyPlugin) OutOfProcess() bool { return true }
