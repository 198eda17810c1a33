package plugin

import (
	"context"
	"fmt"
	"sync"

	// Imported for their side effect only: they register the tfplugin5 and
	// tfplugin6 descriptors and generated message types, which this
	// package then drives by reflection.
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// op is one provider RPC, independent of the protocol version.
type op int

const (
	opGetSchema op = iota
	opValidateProvider
	opValidateResource
	opValidateData
	opConfigure
	opUpgrade
	opRead
	opPlan
	opApply
	opImport
	opMove
	opReadData
	opGetFunctions
	opCallFunction
	opStop
	numOps
)

// rpcSpec names an operation's RPC in each protocol and lists the request
// and response fields this package reads or writes, so a renamed field
// shows up when the protocol table loads rather than mid-plan.
type rpcSpec struct {
	v5, v6    string
	req, resp []string
}

var rpcSpecs = [numOps]rpcSpec{
	opGetSchema: {"GetSchema", "GetProviderSchema", nil,
		[]string{"provider", "resource_schemas", "data_source_schemas", "diagnostics", "server_capabilities", "functions"}},
	opValidateProvider: {"PrepareProviderConfig", "ValidateProviderConfig", []string{"config"}, []string{"diagnostics"}},
	opValidateResource: {"ValidateResourceTypeConfig", "ValidateResourceConfig", []string{"type_name", "config"}, []string{"diagnostics"}},
	opValidateData:     {"ValidateDataSourceConfig", "ValidateDataResourceConfig", []string{"type_name", "config"}, []string{"diagnostics"}},
	opConfigure: {"Configure", "ConfigureProvider", []string{"terraform_version", "config", "client_capabilities"},
		[]string{"diagnostics"}},
	opUpgrade: {"UpgradeResourceState", "UpgradeResourceState", []string{"type_name", "version", "raw_state"},
		[]string{"upgraded_state", "diagnostics"}},
	opRead: {"ReadResource", "ReadResource", []string{"type_name", "current_state", "private"},
		[]string{"new_state", "private", "diagnostics"}},
	opPlan: {"PlanResourceChange", "PlanResourceChange",
		[]string{"type_name", "prior_state", "proposed_new_state", "config", "prior_private", "client_capabilities"},
		[]string{"planned_state", "requires_replace", "planned_private", "legacy_type_system", "diagnostics"}},
	opApply: {"ApplyResourceChange", "ApplyResourceChange",
		[]string{"type_name", "prior_state", "planned_state", "config", "planned_private"},
		[]string{"new_state", "private", "legacy_type_system", "diagnostics"}},
	opImport: {"ImportResourceState", "ImportResourceState", []string{"type_name", "id", "client_capabilities"},
		[]string{"imported_resources", "diagnostics"}},
	opMove: {"MoveResourceState", "MoveResourceState",
		[]string{"source_provider_address", "source_type_name", "source_schema_version", "source_state", "target_type_name", "source_private"},
		[]string{"target_state", "target_private", "diagnostics"}},
	opReadData: {"ReadDataSource", "ReadDataSource", []string{"type_name", "config", "client_capabilities"},
		[]string{"state", "diagnostics"}},
	opGetFunctions: {"GetFunctions", "GetFunctions", nil, []string{"functions", "diagnostics"}},
	opCallFunction: {"CallFunction", "CallFunction", []string{"name", "arguments"}, []string{"result", "error"}},
	opStop:         {"Stop", "StopProvider", nil, []string{"Error"}},
}

// rpc is one resolved method: its gRPC path and generated message types.
type rpc struct {
	name     string
	path     string
	in, out  protoreflect.MessageType
	inFields protoreflect.FieldDescriptors
}

// protocol is the RPC table of one major protocol version.
type protocol struct {
	version int
	rpcs    [numOps]rpc
}

var (
	protocolsOnce sync.Once
	protocols     map[int]*protocol
	protocolsErr  error
)

// loadProtocols resolves both RPC tables once per process.
func loadProtocols() (map[int]*protocol, error) {
	protocolsOnce.Do(func() {
		protocols = map[int]*protocol{}
		for _, v := range []int{5, 6} {
			p, err := loadProtocol(v)
			if err != nil {
				protocolsErr = err
				return
			}
			protocols[v] = p
		}
	})
	return protocols, protocolsErr
}

func loadProtocol(version int) (*protocol, error) {
	svcName := protoreflect.FullName(fmt.Sprintf("tfplugin%d.Provider", version))
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(svcName)
	if err != nil {
		return nil, fmt.Errorf("plugin protocol %d is not linked in: %w", version, err)
	}
	svc, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a service", svcName)
	}
	p := &protocol{version: version}
	for o, spec := range rpcSpecs {
		name := spec.v6
		if version == 5 {
			name = spec.v5
		}
		md := svc.Methods().ByName(protoreflect.Name(name))
		if md == nil {
			return nil, fmt.Errorf("%s has no method %s", svcName, name)
		}
		in, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
		if err != nil {
			return nil, fmt.Errorf("%s.%s request type: %w", svcName, name, err)
		}
		out, err := protoregistry.GlobalTypes.FindMessageByName(md.Output().FullName())
		if err != nil {
			return nil, fmt.Errorf("%s.%s response type: %w", svcName, name, err)
		}
		if err := checkFields(in.Descriptor(), spec.req); err != nil {
			return nil, fmt.Errorf("%s.%s request: %w", svcName, name, err)
		}
		if err := checkFields(out.Descriptor(), spec.resp); err != nil {
			return nil, fmt.Errorf("%s.%s response: %w", svcName, name, err)
		}
		p.rpcs[o] = rpc{
			name: name,
			path: fmt.Sprintf("/%s/%s", svcName, name),
			in:   in, out: out,
			inFields: in.Descriptor().Fields(),
		}
	}
	return p, nil
}

func checkFields(md protoreflect.MessageDescriptor, names []string) error {
	for _, n := range names {
		if md.Fields().ByName(protoreflect.Name(n)) == nil {
			return fmt.Errorf("message %s has no field %q", md.FullName(), n)
		}
	}
	return nil
}

// invoke makes one unary call. The request and response are generated
// messages, which the gRPC proto codec marshals as they are.
func (p *protocol) invoke(ctx context.Context, conn *grpc.ClientConn, o op, req protoreflect.Message) (protoreflect.Message, error) {
	r := &p.rpcs[o]
	resp := r.out.New()
	if err := conn.Invoke(ctx, r.path, req.Interface(), resp.Interface()); err != nil {
		return nil, err
	}
	return resp, nil
}

// Field access by .proto name. An unknown name is a bug in this package
// (the tests walk every RPC of both protocols), so it panics.

func field(m protoreflect.Message, name string) protoreflect.FieldDescriptor {
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		panic(fmt.Sprintf("plugin: message %s has no field %q", m.Descriptor().FullName(), name))
	}
	return fd
}

// hasField reports whether the protocol defines the field at all (some
// exist only in protocol 6).
func hasField(m protoreflect.Message, name string) bool {
	return m.Descriptor().Fields().ByName(protoreflect.Name(name)) != nil
}

func setString(m protoreflect.Message, name, v string) {
	m.Set(field(m, name), protoreflect.ValueOfString(v))
}

func setInt(m protoreflect.Message, name string, v int64) {
	m.Set(field(m, name), protoreflect.ValueOfInt64(v))
}

func setBool(m protoreflect.Message, name string, v bool) {
	m.Set(field(m, name), protoreflect.ValueOfBool(v))
}

func setBytes(m protoreflect.Message, name string, v []byte) {
	if v != nil {
		m.Set(field(m, name), protoreflect.ValueOfBytes(v))
	}
}

func mutable(m protoreflect.Message, name string) protoreflect.Message {
	return m.Mutable(field(m, name)).Message()
}

func getString(m protoreflect.Message, name string) string {
	return m.Get(field(m, name)).String()
}

func getInt(m protoreflect.Message, name string) int64 {
	return m.Get(field(m, name)).Int()
}

func getBool(m protoreflect.Message, name string) bool {
	return m.Get(field(m, name)).Bool()
}

func getBytes(m protoreflect.Message, name string) []byte {
	b := m.Get(field(m, name)).Bytes()
	if len(b) == 0 {
		return nil
	}
	return b
}

func getEnum(m protoreflect.Message, name string) protoreflect.EnumNumber {
	return m.Get(field(m, name)).Enum()
}

// getMsg returns the sub-message, or nil when it is not set.
func getMsg(m protoreflect.Message, name string) protoreflect.Message {
	fd := field(m, name)
	if !m.Has(fd) {
		return nil
	}
	return m.Get(fd).Message()
}

func getList(m protoreflect.Message, name string) protoreflect.List {
	return m.Get(field(m, name)).List()
}

func getMap(m protoreflect.Message, name string) protoreflect.Map {
	return m.Get(field(m, name)).Map()
}
