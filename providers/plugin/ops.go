package plugin

import (
	"context"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tenetplan/tenet/providers"
)

// call makes one RPC and turns a transport failure into a diagnostic.
func (c *Client) call(ctx context.Context, o op, req protoreflect.Message) (protoreflect.Message, providers.Diagnostics) {
	resp, err := c.proto.invoke(ctx, c.conn, o, req)
	if err == nil {
		return resp, nil
	}
	return nil, c.transportDiags(ctx, o, err)
}

// callForDiagnostics makes an RPC whose response carries nothing but
// diagnostics, and returns them (or why the call failed).
func (c *Client) callForDiagnostics(ctx context.Context, o op, req protoreflect.Message) providers.Diagnostics {
	resp, diags := c.call(ctx, o, req)
	if resp == nil {
		return diags
	}
	return decodeDiagnostics(resp)
}

// transportDiags explains a failed call: interrupted, not implemented,
// the plugin crashed, or the connection failed.
func (c *Client) transportDiags(ctx context.Context, o op, err error) providers.Diagnostics {
	var diags providers.Diagnostics
	rpcName := c.proto.rpcs[o].name
	switch {
	case ctx.Err() != nil:
		c.interrupt()
		return diags.Errorf(nil, "Provider operation interrupted",
			fmt.Sprintf("The %s call to provider %s was cancelled (%s). tenet asked the provider to stop, and kills it if it does not.", rpcName, c.name, ctx.Err()))
	case status.Code(err) == codes.Unimplemented:
		return diags.Errorf(nil, "Unsupported provider operation",
			fmt.Sprintf("Provider %s does not implement %s. Use a newer version of the provider, or avoid the feature that needs it.", c.name, rpcName))
	case c.exited():
		detail := fmt.Sprintf("The plugin encountered an error, and failed to respond to the %s call. The plugin logs may contain more details; this is a bug in provider %s, report it to its developers.", rpcName, c.name)
		if out := c.tail.panicOutput(); out != "" {
			detail += "\n\nThe plugin's panic output was:\n" + out
		}
		return diags.Errorf(nil, "Plugin did not respond", detail)
	}
	return diags.Errorf(nil, "Failed to call provider",
		fmt.Sprintf("The %s call to provider %s failed: %s.", rpcName, c.name, err))
}

// interrupt asks the plugin to stop its in-flight work, once, and kills
// it when it does not answer in time.
func (c *Client) interrupt() {
	c.stopping.Do(func() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), c.cfg.StopTimeout)
			defer cancel()
			if _, err := c.proto.invoke(ctx, c.conn, opStop, c.proto.rpcs[opStop].in.New()); err != nil && c.cfg.Reattach == nil {
				c.pc.Kill()
			}
		}()
	})
}

func (c *Client) newReq(o op) protoreflect.Message { return c.proto.rpcs[o].in.New() }

// setCaps tells the provider what this client can handle: write-only
// attributes yes, deferred changes not yet.
func setCaps(req protoreflect.Message) {
	caps := mutable(req, "client_capabilities")
	setBool(caps, "deferral_allowed", false)
	setBool(caps, "write_only_attributes_allowed", true)
}

// GetProviderSchema asks the provider once per process (or takes
// Config.CachedSchema when the provider allows) and then answers from
// the cache, which every other call encodes its values against.
func (c *Client) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	c.schemaMu.Lock()
	s := c.schema
	c.schemaMu.Unlock()
	if s != nil {
		return *s
	}
	s, diags := c.fetchSchema(ctx)
	if s == nil {
		return providers.GetProviderSchemaResponse{Diagnostics: diags}
	}
	return *s
}

func (c *Client) fetchSchema(ctx context.Context) (*providers.GetProviderSchemaResponse, providers.Diagnostics) {
	resp, diags := c.call(ctx, opGetSchema, c.newReq(opGetSchema))
	if resp == nil {
		return nil, diags
	}
	s, err := decodeSchemaResponse(resp)
	if err != nil {
		return nil, s.Diagnostics.Errorf(nil, "Invalid provider schema",
			fmt.Sprintf("Provider %s returned a schema tenet cannot read: %s. This is a bug in the provider; report it to its developers.", c.name, err))
	}
	if !s.Diagnostics.HasErrors() {
		c.schemaMu.Lock()
		c.schema = &s
		c.schemaMu.Unlock()
	}
	return &s, nil
}

// schemaOf returns the cached schema, fetching it on first need.
func (c *Client) schemaOf(ctx context.Context) (*providers.GetProviderSchemaResponse, providers.Diagnostics) {
	c.schemaMu.Lock()
	s := c.schema
	c.schemaMu.Unlock()
	if s != nil {
		return s, nil
	}
	s, diags := c.fetchSchema(ctx)
	if s != nil && s.Diagnostics.HasErrors() {
		return nil, append(diags, s.Diagnostics...)
	}
	return s, diags
}

func (c *Client) resourceSchema(ctx context.Context, typeName string) (*providers.Schema, providers.Diagnostics) {
	return c.typeSchema(ctx, typeName, "resource type", func(s *providers.GetProviderSchemaResponse) map[string]providers.Schema { return s.ResourceTypes })
}

func (c *Client) dataSchema(ctx context.Context, typeName string) (*providers.Schema, providers.Diagnostics) {
	return c.typeSchema(ctx, typeName, "data source", func(s *providers.GetProviderSchemaResponse) map[string]providers.Schema { return s.DataSources })
}

// typeSchema finds typeName in the map of the schema that pick returns,
// whose kind of type what names ("resource type", "data source").
func (c *Client) typeSchema(ctx context.Context, typeName, what string, pick func(*providers.GetProviderSchemaResponse) map[string]providers.Schema) (*providers.Schema, providers.Diagnostics) {
	s, diags := c.schemaOf(ctx)
	if s == nil {
		return nil, diags
	}
	ts, ok := pick(s)[typeName]
	if !ok {
		return nil, diags.Errorf(nil, "Unsupported "+what,
			fmt.Sprintf("Provider %s has no %s %q. Check the %s name and the provider version.", c.name, what, typeName, what))
	}
	return &ts, diags
}

// encodeError reports a request value that does not fit the schema: a
// bug on tenet's side, but still a diagnostic rather than a crash.
func encodeError(diags providers.Diagnostics, rpcName, what string, err error) providers.Diagnostics {
	return diags.Errorf(nil, "Invalid value for provider",
		fmt.Sprintf("tenet could not encode the %s for %s: %s. This is a bug in tenet; please report it.", what, rpcName, err))
}

func (c *Client) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	s, diags := c.schemaOf(ctx)
	if s == nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	ty := s.Provider.Block.ImpliedType()
	m := c.newReq(opValidateProvider)
	if err := setDynamic(m, "config", req.Config, ty); err != nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: encodeError(diags, c.proto.rpcs[opValidateProvider].name, "provider configuration", err)}
	}
	resp, diags := c.call(ctx, opValidateProvider, m)
	if resp == nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	out := providers.ValidateProviderConfigResponse{Diagnostics: decodeDiagnostics(resp)}
	// Protocol 5 lets the provider hand back a prepared configuration.
	if hasField(resp, "prepared_config") && getMsg(resp, "prepared_config") != nil {
		v, d := decodeField(resp, "prepared_config", ty, "PrepareProviderConfig", "prepared configuration", out.Diagnostics)
		out.Diagnostics = d
		if !v.IsNull() {
			out.PreparedConfig = v
		}
	}
	return out
}

func (c *Client) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	m, _, diags := c.newTypedReq(ctx, opValidateResource, c.proto.rpcs[opValidateResource].name, resourceTypeSchema, req.TypeName,
		namedValue{"config", "configuration", req.Config})
	if m == nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	if hasField(m, "client_capabilities") {
		setCaps(m)
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: c.callForDiagnostics(ctx, opValidateResource, m)}
}

func (c *Client) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	m, _, diags := c.newTypedReq(ctx, opValidateData, c.proto.rpcs[opValidateData].name, dataSourceSchema, req.TypeName,
		namedValue{"config", "configuration", req.Config})
	if m == nil {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: c.callForDiagnostics(ctx, opValidateData, m)}
}

func (c *Client) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	s, diags := c.schemaOf(ctx)
	if s == nil {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	m := c.newReq(opConfigure)
	setString(m, "terraform_version", c.cfg.TerraformVersion)
	if err := setDynamic(m, "config", req.Config, s.Provider.Block.ImpliedType()); err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: encodeError(diags, c.proto.rpcs[opConfigure].name, "provider configuration", err)}
	}
	setCaps(m)
	return providers.ConfigureProviderResponse{Diagnostics: c.callForDiagnostics(ctx, opConfigure, m)}
}

func (c *Client) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	s, diags := c.resourceSchema(ctx, req.TypeName)
	if s == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	m := c.newReq(opUpgrade)
	setString(m, "type_name", req.TypeName)
	setInt(m, "version", req.Version)
	raw := mutable(m, "raw_state")
	if len(req.RawJSON) > 0 {
		setBytes(raw, "json", req.RawJSON)
	} else {
		fm := raw.Mutable(field(raw, "flatmap")).Map()
		for k, v := range req.RawFlatmap {
			fm.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfString(v))
		}
	}
	resp, diags := c.call(ctx, opUpgrade, m)
	if resp == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	out := providers.UpgradeResourceStateResponse{}
	out.UpgradedState, out.Diagnostics = decodeField(resp, "upgraded_state", s.Block.ImpliedType(), "UpgradeResourceState", "upgraded state", decodeDiagnostics(resp))
	return out
}

func (c *Client) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	resp, ty, diags := c.callTyped(ctx, opRead, "ReadResource", resourceTypeSchema, req.TypeName, func(m protoreflect.Message) {
		setBytes(m, "private", req.Private)
		setCaps(m)
	}, namedValue{"current_state", "current state", req.PriorState})
	if resp == nil {
		return providers.ReadResourceResponse{Diagnostics: diags}
	}
	out := providers.ReadResourceResponse{Private: getBytes(resp, "private")}
	out.NewState, out.Diagnostics = decodeField(resp, "new_state", ty, "ReadResource", "new state", decodeDiagnostics(resp))
	return out
}

// namedValue is one object value of a request: its field name, the
// words an encoding error calls it by, and the value.
type namedValue struct {
	name, what string
	v          cty.Value
}

// fieldValue is a value whose encoding error calls it by its field name.
func fieldValue(name string, v cty.Value) namedValue { return namedValue{name, name, v} }

// schemaLookup finds one resource type's or data source's schema.
type schemaLookup func(c *Client, ctx context.Context, typeName string) (*providers.Schema, providers.Diagnostics)

var (
	resourceTypeSchema schemaLookup = (*Client).resourceSchema
	dataSourceSchema   schemaLookup = (*Client).dataSchema
)

// newTypedReq starts a request about one resource type or data source:
// its name and its object values, each encoded as the schema that lookup
// finds says. A nil message means the schema is missing or a value would
// not encode; the diagnostics say which.
func (c *Client) newTypedReq(ctx context.Context, o op, rpcName string, lookup schemaLookup, typeName string, values ...namedValue) (protoreflect.Message, cty.Type, providers.Diagnostics) {
	s, diags := lookup(c, ctx, typeName)
	if s == nil {
		return nil, cty.NilType, diags
	}
	ty := s.Block.ImpliedType()
	m := c.newReq(o)
	setString(m, "type_name", typeName)
	for _, f := range values {
		if err := setDynamic(m, f.name, f.v, ty); err != nil {
			return nil, ty, encodeError(diags, rpcName, f.what, err)
		}
	}
	return m, ty, diags
}

// callTyped sends a request made by newTypedReq once fill has set its
// other fields, and gives the response with the type the operation's
// object values decode as. A nil response means the request was not
// built or the call failed; the diagnostics say which.
func (c *Client) callTyped(ctx context.Context, o op, rpcName string, lookup schemaLookup, typeName string, fill func(protoreflect.Message), values ...namedValue) (protoreflect.Message, cty.Type, providers.Diagnostics) {
	m, ty, diags := c.newTypedReq(ctx, o, rpcName, lookup, typeName, values...)
	if m == nil {
		return nil, ty, diags
	}
	fill(m)
	resp, diags := c.call(ctx, o, m)
	return resp, ty, diags
}

func (c *Client) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	resp, ty, diags := c.callTyped(ctx, opPlan, "PlanResourceChange", resourceTypeSchema, req.TypeName, func(m protoreflect.Message) {
		setBytes(m, "prior_private", req.PriorPrivate)
		setCaps(m)
	}, fieldValue("prior_state", req.PriorState), fieldValue("proposed_new_state", req.ProposedNewState), fieldValue("config", req.Config))
	if resp == nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	out := providers.PlanResourceChangeResponse{
		PlannedPrivate:   getBytes(resp, "planned_private"),
		LegacyTypeSystem: getBool(resp, "legacy_type_system"),
	}
	out.PlannedState, out.Diagnostics = decodeField(resp, "planned_state", ty, "PlanResourceChange", "planned state", decodeDiagnostics(resp))
	rr := getList(resp, "requires_replace")
	for i := 0; i < rr.Len(); i++ {
		out.RequiresReplace = append(out.RequiresReplace, decodePath(rr.Get(i).Message()))
	}
	return out
}

func (c *Client) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	resp, ty, diags := c.callTyped(ctx, opApply, "ApplyResourceChange", resourceTypeSchema, req.TypeName, func(m protoreflect.Message) {
		setBytes(m, "planned_private", req.PlannedPrivate)
	}, fieldValue("prior_state", req.PriorState), fieldValue("planned_state", req.PlannedState), fieldValue("config", req.Config))
	if resp == nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags}
	}
	out := providers.ApplyResourceChangeResponse{
		Private:          getBytes(resp, "private"),
		LegacyTypeSystem: getBool(resp, "legacy_type_system"),
	}
	out.NewState, out.Diagnostics = decodeField(resp, "new_state", ty, "ApplyResourceChange", "new state", decodeDiagnostics(resp))
	return out
}

func (c *Client) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	s, diags := c.schemaOf(ctx)
	if s == nil {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	m := c.newReq(opImport)
	setString(m, "type_name", req.TypeName)
	setString(m, "id", req.ID)
	setCaps(m)
	resp, diags := c.call(ctx, opImport, m)
	if resp == nil {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	out := providers.ImportResourceStateResponse{Diagnostics: decodeDiagnostics(resp)}
	list := getList(resp, "imported_resources")
	for i := 0; i < list.Len(); i++ {
		ir := list.Get(i).Message()
		typeName := getString(ir, "type_name")
		rs, ok := s.ResourceTypes[typeName]
		if !ok {
			out.Diagnostics = out.Diagnostics.Errorf(nil, "Invalid response from provider",
				fmt.Sprintf("Provider %s imported an object of resource type %q, which its schema does not define. This is a bug in the provider; report it to its developers.", c.name, typeName))
			continue
		}
		var v cty.Value
		v, out.Diagnostics = decodeField(ir, "state", rs.Block.ImpliedType(), "ImportResourceState", "imported state", out.Diagnostics)
		out.ImportedResources = append(out.ImportedResources, providers.ImportedResource{
			TypeName: typeName, State: v, Private: getBytes(ir, "private"),
		})
	}
	return out
}

func (c *Client) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	resp, ty, diags := c.callTyped(ctx, opReadData, "ReadDataSource", dataSourceSchema, req.TypeName, setCaps,
		namedValue{"config", "configuration", req.Config})
	if resp == nil {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	out := providers.ReadDataSourceResponse{}
	out.State, out.Diagnostics = decodeField(resp, "state", ty, "ReadDataSource", "state", decodeDiagnostics(resp))
	return out
}

func (c *Client) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	s, diags := c.resourceSchema(ctx, req.TargetTypeName)
	if s == nil {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	m := c.newReq(opMove)
	setString(m, "source_provider_address", req.SourceProviderAddress)
	setString(m, "source_type_name", req.SourceTypeName)
	setInt(m, "source_schema_version", req.SourceSchemaVersion)
	setBytes(mutable(m, "source_state"), "json", req.SourceStateJSON)
	setString(m, "target_type_name", req.TargetTypeName)
	setBytes(m, "source_private", req.SourcePrivate)
	resp, diags := c.call(ctx, opMove, m)
	if resp == nil {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	out := providers.MoveResourceStateResponse{TargetPrivate: getBytes(resp, "target_private")}
	out.TargetState, out.Diagnostics = decodeField(resp, "target_state", s.Block.ImpliedType(), "MoveResourceState", "target state", decodeDiagnostics(resp))
	return out
}

// GetFunctions asks for the function signatures on their own; providers
// too old for that RPC list them in their schema instead.
func (c *Client) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	resp, err := c.proto.invoke(ctx, c.conn, opGetFunctions, c.newReq(opGetFunctions))
	if status.Code(err) == codes.Unimplemented {
		s, diags := c.schemaOf(ctx)
		if s == nil {
			return providers.GetFunctionsResponse{Diagnostics: diags}
		}
		return providers.GetFunctionsResponse{Functions: s.Functions}
	}
	if err != nil {
		return providers.GetFunctionsResponse{Diagnostics: c.transportDiags(ctx, opGetFunctions, err)}
	}
	out := providers.GetFunctionsResponse{Diagnostics: decodeDiagnostics(resp)}
	fns, ferr := decodeFunctions(getMap(resp, "functions"))
	if ferr != nil {
		out.Diagnostics = out.Diagnostics.Errorf(nil, "Invalid provider function signatures",
			fmt.Sprintf("Provider %s returned function signatures tenet cannot read: %s. This is a bug in the provider; report it to its developers.", c.name, ferr))
		return out
	}
	out.Functions = fns
	return out
}

// CallFunction encodes each argument against its parameter's type (a
// dynamic parameter carries its value's own type on the wire) and
// decodes the result against the declared return type.
func (c *Client) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	fail := func(format string, args ...any) providers.CallFunctionResponse {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: fmt.Sprintf(format, args...)}}
	}
	s, diags := c.schemaOf(ctx)
	if s == nil {
		return fail("cannot read the schema of provider %s: %s", c.name, summarize(diags))
	}
	fn, ok := s.Functions[req.Name]
	if !ok {
		return fail("provider %s has no function %q", c.name, req.Name)
	}
	if len(req.Arguments) < len(fn.Parameters) || (fn.VariadicParameter == nil && len(req.Arguments) > len(fn.Parameters)) {
		return fail("function %q takes %d arguments, got %d", req.Name, len(fn.Parameters), len(req.Arguments))
	}
	m := c.newReq(opCallFunction)
	args := m.Mutable(field(m, "arguments")).List()
	for i, a := range req.Arguments {
		ty := cty.DynamicPseudoType
		if i < len(fn.Parameters) {
			ty = fn.Parameters[i].Type
		} else {
			ty = fn.VariadicParameter.Type
		}
		b, err := encodeValue(a, ty)
		if err != nil {
			arg := i
			return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: fmt.Sprintf("invalid value for function %q: %s", req.Name, err), Argument: &arg}}
		}
		e := args.NewElement()
		setBytes(e.Message(), "msgpack", b)
		args.Append(e)
	}
	setString(m, "name", req.Name)
	resp, diags := c.call(ctx, opCallFunction, m)
	if resp == nil {
		return fail("%s", summarize(diags))
	}
	if fe := getMsg(resp, "error"); fe != nil {
		out := &providers.FunctionError{Text: getString(fe, "text")}
		if fd := field(fe, "function_argument"); fe.Has(fd) {
			n := int(fe.Get(fd).Int())
			out.Argument = &n
		}
		return providers.CallFunctionResponse{Err: out}
	}
	v, err := decodeDynamic(getMsg(resp, "result"), fn.ReturnType)
	if err != nil {
		return fail("provider %s returned a result for %q that is not a valid %s: %s; this is a bug in the provider", c.name, req.Name, fn.ReturnType.FriendlyName(), err)
	}
	return providers.CallFunctionResponse{Result: v}
}

func summarize(diags providers.Diagnostics) string {
	for _, d := range diags {
		if d.Detail != "" {
			return d.Detail
		}
		return d.Summary
	}
	return "unknown error"
}

// StopProvider asks the plugin to abandon its in-flight operations.
func (c *Client) StopProvider(ctx context.Context) providers.StopProviderResponse {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.StopTimeout)
		defer cancel()
	}
	start := time.Now()
	resp, err := c.proto.invoke(ctx, c.conn, opStop, c.newReq(opStop))
	if err != nil {
		return providers.StopProviderResponse{Error: fmt.Sprintf("provider %s did not stop (after %s): %s", c.name, time.Since(start).Round(time.Millisecond), err)}
	}
	return providers.StopProviderResponse{Error: getString(resp, "Error")}
}
