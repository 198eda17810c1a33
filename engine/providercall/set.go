package providercall

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers"
)

// Set starts providers on demand and keeps one schema per
// provider and one configured instance per provider configuration.
type Set struct {
	registry providers.Registry
	workDir  string

	mu        sync.Mutex
	schemas   map[addrs.Provider]*providers.GetProviderSchemaResponse
	instances map[string]providers.Interface // AbsProviderConfig.String()
	specs     map[string]hcldec.Spec         // provider/mode/type
	// spares are instances started to read a schema and not configured
	// yet: the first configuration of the provider takes one instead of
	// starting another process.
	spares map[addrs.Provider]providers.Interface
}

// NewSet is an empty set over the providers of reg.
func NewSet(reg providers.Registry, workDir string) *Set {
	return &Set{
		registry:  reg,
		workDir:   workDir,
		schemas:   map[addrs.Provider]*providers.GetProviderSchemaResponse{},
		instances: map[string]providers.Interface{},
		specs:     map[string]hcldec.Spec{},
		spares:    map[addrs.Provider]providers.Interface{},
	}
}

// Schema returns the provider's schemas, starting an instance to ask for
// them the first time. That instance is kept for the provider's first
// configuration, so a plugin provider is launched once per configuration.
func (ps *Set) Schema(ctx context.Context, p addrs.Provider) (*providers.GetProviderSchemaResponse, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if s, ok := ps.schemas[p]; ok {
		return s, nil
	}
	factory, ok := ps.registry[p]
	if !ok {
		return nil, fmt.Errorf("provider %s is neither installed nor built into tenet (built in: %s); run init to install it", p, ps.available())
	}
	inst, err := factory()
	if err != nil {
		return nil, fmt.Errorf("starting provider %s: %w", p, err)
	}
	resp := inst.GetProviderSchema(ctx)
	if resp.Diagnostics.HasErrors() {
		_ = inst.Close(ctx)
		return nil, fmt.Errorf("provider %s could not describe itself: %s", p, diagText(resp.Diagnostics[0]))
	}
	ps.spares[p] = inst
	ps.schemas[p] = &resp
	return &resp, nil
}

// Unconfigured returns an instance of p that no configuration has been
// given, for validating resource configurations as OpenTofu's validate
// does, before any provider is configured. It is the instance Schema
// started, and stays the set's; nil once a configuration took it.
func (ps *Set) Unconfigured(ctx context.Context, p addrs.Provider) (providers.Interface, error) {
	if _, err := ps.Schema(ctx, p); err != nil {
		return nil, err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.spares[p], nil
}

func (ps *Set) available() string {
	var names []string
	for p := range ps.registry {
		names = append(names, p.String())
	}
	sort.Strings(names)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// ResourceSchema finds the schema of a resource type or data source.
func (ps *Set) ResourceSchema(ctx context.Context, p addrs.Provider, mode addrs.ResourceMode, typ string) (*providers.Schema, error) {
	s, err := ps.Schema(ctx, p)
	if err != nil {
		return nil, err
	}
	var sch providers.Schema
	var ok bool
	if mode == addrs.DataResourceMode {
		sch, ok = s.DataSources[typ]
	} else {
		sch, ok = s.ResourceTypes[typ]
	}
	if !ok {
		return nil, nil
	}
	return &sch, nil
}

// Spec returns the (cached) decoder spec of a schema block.
func (ps *Set) Spec(p addrs.Provider, mode addrs.ResourceMode, typ string, b *providers.Block) hcldec.Spec {
	key := p.String() + "|" + mode.String() + "|" + typ
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if s, ok := ps.specs[key]; ok {
		return s
	}
	s := b.DecoderSpec()
	ps.specs[key] = s
	return s
}

// Configure starts and configures the instance for one provider configuration.
func (ps *Set) Configure(ctx context.Context, addr addrs.AbsProviderConfig, config cty.Value) (providers.Interface, hcl.Diagnostics) {
	ps.mu.Lock()
	if inst, ok := ps.instances[addr.String()]; ok {
		ps.mu.Unlock()
		return inst, nil
	}
	spare := ps.spares[addr.Provider]
	delete(ps.spares, addr.Provider)
	ps.mu.Unlock()
	factory, ok := ps.registry[addr.Provider]
	if spare != nil {
		factory, ok = func() (providers.Interface, error) { return spare, nil }, true
	}
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider not available",
			Detail:   fmt.Sprintf("Provider %s is neither installed nor built into tenet (built in: %s). Run init to install it.", addr.Provider, ps.available()),
		}}
	}
	inst, err := factory()
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to start provider", Detail: err.Error()}}
	}
	vresp := inst.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: config})
	diags := Diags(vresp.Diagnostics, nil, "")
	if diags.HasErrors() {
		return nil, diags
	}
	resp := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: config, WorkingDir: ps.workDir})
	diags = append(diags, Diags(resp.Diagnostics, nil, "")...)
	if diags.HasErrors() {
		return nil, diags
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if existing, ok := ps.instances[addr.String()]; ok {
		_ = inst.Close(ctx)
		return existing, diags
	}
	ps.instances[addr.String()] = inst
	return inst, diags
}

// instance returns a configured instance (nil if not configured).
func (ps *Set) instance(addr addrs.AbsProviderConfig) providers.Interface {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.instances[addr.String()]
}

func (ps *Set) CloseAll(ctx context.Context) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for k, inst := range ps.instances {
		_ = inst.Close(ctx)
		delete(ps.instances, k)
	}
	for p, inst := range ps.spares {
		_ = inst.Close(ctx)
		delete(ps.spares, p)
	}
}

func diagText(d providers.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}

// Diags turns provider diagnostics into hcl diagnostics. For a resource
// instance (addr set, body its configuration), as OpenTofu, each one names
// the instance and points at the attribute the provider names or, when it
// names none (or one not written in the body), at the block's opening
// brace. Without addr, only an attribute the body has is pointed at.
func Diags(in providers.Diagnostics, body hcl.Body, addr string) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range in {
		diag := &hcl.Diagnostic{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail}
		if d.Sourceless {
			out = append(out, diag)
			continue
		}
		if body != nil {
			if rng, ok := rangeOfPath(body, d.Attribute); ok {
				diag.Subject = &rng
			} else if addr != "" {
				rng := openingBrace(body)
				diag.Subject = &rng
			}
		}
		if addr != "" && body != nil {
			diag.Extra = ResourceAddress(addr)
		}
		out = append(out, diag)
	}
	return out
}

// ResourceAddress is the Extra of a diagnostic about one resource
// instance; views show it as the diagnostic's "with ADDR," line and JSON
// "address".
type ResourceAddress string

// DiagnosticResourceAddress gives the instance address.
func (a ResourceAddress) DiagnosticResourceAddress() string { return string(a) }

// openingBrace is the one-character range of the brace that opens body
// (where its MissingItemRange starts), OpenTofu's subject for a resource's
// diagnostic that names no attribute.
func openingBrace(body hcl.Body) hcl.Range {
	rng := body.MissingItemRange()
	rng.End = rng.Start
	rng.End.Byte++
	rng.End.Column++
	return rng
}

// rangeOfPath finds the source range of the attribute a path starts with.
func rangeOfPath(body hcl.Body, path cty.Path) (hcl.Range, bool) {
	if len(path) == 0 {
		return hcl.Range{}, false
	}
	ga, ok := path[0].(cty.GetAttrStep)
	if !ok {
		return hcl.Range{}, false
	}
	attrs, _ := body.JustAttributes()
	if a, ok := attrs[ga.Name]; ok {
		return a.Expr.Range(), true
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: ga.Name}}})
	if content != nil {
		if a, ok := content.Attributes[ga.Name]; ok {
			return a.Expr.Range(), true
		}
	}
	return hcl.Range{}, false
}

// StopAll asks every configured provider to stop its operations in
// flight (an interrupt), all at once: each may take a while to answer.
func (ps *Set) StopAll(ctx context.Context) {
	ps.mu.Lock()
	insts := make([]providers.Interface, 0, len(ps.instances))
	for _, inst := range ps.instances {
		insts = append(insts, inst)
	}
	ps.mu.Unlock()
	var wg sync.WaitGroup
	for _, inst := range insts {
		wg.Go(func() { inst.StopProvider(ctx) })
	}
	wg.Wait()
}
