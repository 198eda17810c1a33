package engine

import (
	"context"
	"sort"
	"sync"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
)

// providerFunctions finds the provider-defined functions a module can
// call, as provider::LOCAL::FUNC, LOCAL being a name of the module's
// required_providers (as in OpenTofu, a provider only used implicitly
// lends no functions). The signatures come from the provider's schema;
// calls go to one unconfigured instance per provider, started on the
// first call, since provider functions must not depend on configuration.
type providerFunctions struct {
	ctx context.Context
	ps  *providerSet

	mu    sync.Mutex
	insts map[addrs.Provider]providers.Interface
}

func newProviderFunctions(ctx context.Context, ps *providerSet) *providerFunctions {
	return &providerFunctions{ctx: ctx, ps: ps, insts: map[addrs.Provider]providers.Interface{}}
}

// forModule returns the provider functions mod can call, keyed as HCL
// looks them up. A provider that cannot describe itself lends none: the
// resources using it report why.
func (pf *providerFunctions) forModule(mod *config.Module) map[string]function.Function {
	if pf == nil || mod == nil || len(mod.RequiredProviders) == 0 {
		return nil
	}
	locals := make([]string, 0, len(mod.RequiredProviders))
	for name := range mod.RequiredProviders {
		locals = append(locals, name)
	}
	sort.Strings(locals)
	var out map[string]function.Function
	for _, local := range locals {
		p := mod.ImpliedProvider(local)
		if _, ok := pf.ps.registry[p]; !ok {
			continue
		}
		s, err := pf.ps.schema(pf.ctx, p)
		if err != nil || len(s.Functions) == 0 {
			continue
		}
		inst := &functionInstance{pf: pf, p: p}
		for name, fn := range s.Functions {
			if out == nil {
				out = map[string]function.Function{}
			}
			out["provider::"+local+"::"+name] = fn.Bind(pf.ctx, inst, name)
		}
	}
	return out
}

// instance starts (once) the instance that serves p's function calls.
func (pf *providerFunctions) instance(p addrs.Provider) (providers.Interface, error) {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	if inst, ok := pf.insts[p]; ok {
		return inst, nil
	}
	inst, err := pf.ps.registry[p]()
	if err != nil {
		return nil, err
	}
	pf.insts[p] = inst
	return inst, nil
}

func (pf *providerFunctions) closeAll(ctx context.Context) {
	if pf == nil {
		return
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	for p, inst := range pf.insts {
		_ = inst.Close(ctx)
		delete(pf.insts, p)
	}
}

// functionInstance forwards function calls to the provider's function
// instance, started on the first call so that a configuration which
// never calls a provider function starts no process for it.
type functionInstance struct {
	providers.Interface // only CallFunction is used
	pf                  *providerFunctions
	p                   addrs.Provider
}

func (fi *functionInstance) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	inst, err := fi.pf.instance(fi.p)
	if err != nil {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "starting provider " + fi.p.String() + ": " + err.Error()}}
	}
	return inst.CallFunction(ctx, req)
}
