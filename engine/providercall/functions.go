package providercall

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
)

// Functions finds the provider-defined functions a module can
// call, as provider::LOCAL::FUNC, LOCAL being a name of the module's
// required_providers (as in OpenTofu, a provider only used implicitly
// lends no functions). The signatures come from the provider's schema;
// calls go to one unconfigured instance per provider, started on the
// first call, since provider functions must not depend on configuration.
type Functions struct {
	ctx context.Context
	ps  *Set

	mu    sync.Mutex
	insts map[addrs.Provider]providers.Interface
}

// NewFunctions serves provider-defined functions from the providers of ps.
func NewFunctions(ctx context.Context, ps *Set) *Functions {
	return &Functions{ctx: ctx, ps: ps, insts: map[addrs.Provider]providers.Interface{}}
}

// ForModule returns the provider functions mod can call, keyed as HCL
// looks them up. A provider that cannot describe itself lends none: the
// resources using it report why.
func (pf *Functions) ForModule(mod *config.Module) map[string]function.Function {
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
		s, err := pf.ps.Schema(pf.ctx, p)
		if err != nil || len(s.Functions) == 0 {
			continue
		}
		inst := &functionInstance{pf: pf, p: p}
		if out == nil {
			out = map[string]function.Function{}
		}
		// provider::LOCAL::ALIAS::FUNC names a configuration of the
		// provider; the call is the same, since a provider function
		// sees its arguments only.
		prefixes := append([]string{"provider::" + local + "::"}, aliasPrefixes(mod, local)...)
		for name, fn := range s.Functions {
			bound := fn.Bind(pf.ctx, inst, name)
			for _, pre := range prefixes {
				out[pre+name] = bound
			}
		}
	}
	return out
}

// aliasPrefixes are the provider::LOCAL::ALIAS:: namespaces of the
// aliased configurations of local the module declares or receives.
func aliasPrefixes(mod *config.Module, local string) []string {
	var out []string
	for _, pc := range mod.ProviderConfigs {
		if pc.Name == local && pc.Alias != "" {
			out = append(out, "provider::"+local+"::"+pc.Alias+"::")
		}
	}
	if rp := mod.RequiredProviders[local]; rp != nil {
		for _, a := range rp.ConfigurationAliases {
			if a.Alias != "" {
				out = append(out, "provider::"+local+"::"+a.Alias+"::")
			}
		}
	}
	return out
}

// CheckFunctionCalls reports, without evaluating anything, each call of a
// provider function whose provider is not in the calling module's
// required_providers (validate's check; an unknown function of a known
// provider is found when the call is evaluated).
func CheckFunctionCalls(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byDir := map[string]*config.Module{}
	for _, m := range cfg.Modules() {
		byDir[path.Clean(m.SourceDir)] = m
	}
	names := make([]string, 0, len(cfg.Files))
	for name := range cfg.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := byDir[path.Dir(filepath.ToSlash(name))]
		body, ok := cfg.Files[name].Body.(*hclsyntax.Body)
		if m == nil || !ok {
			continue
		}
		_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok || !strings.HasPrefix(call.Name, "provider::") {
				return nil
			}
			parts := strings.Split(call.Name, "::")
			if len(parts) < 3 {
				return nil
			}
			if _, ok := m.RequiredProviders[parts[1]]; !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unknown function provider",
					Detail:   fmt.Sprintf("Provider %q does not exist within the required_providers of this module. Add it to the module's required_providers block to call its functions.", parts[1]),
					Subject:  call.NameRange.Ptr(),
				})
			}
			return nil
		})
	}
	return diags
}

// instance starts (once) the instance that serves p's function calls.
func (pf *Functions) instance(p addrs.Provider) (providers.Interface, error) {
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

// CloseAll stops the provider instances started to call functions.
func (pf *Functions) CloseAll(ctx context.Context) {
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
	pf                  *Functions
	p                   addrs.Provider
}

func (fi *functionInstance) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	inst, err := fi.pf.instance(fi.p)
	if err != nil {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "starting provider " + fi.p.String() + ": " + err.Error()}}
	}
	return inst.CallFunction(ctx, req)
}
