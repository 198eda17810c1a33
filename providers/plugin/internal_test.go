package plugin

import (
	"net"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tenetplan/tenet/providers"
)

// TestProtocolTables resolves every RPC of both protocols, with every
// field this package touches, and checks the names that differ.
func TestProtocolTables(t *testing.T) {
	protos, err := loadProtocols()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		version int
		op      op
		path    string
	}{
		{5, opGetSchema, "/tfplugin5.Provider/GetSchema"},
		{6, opGetSchema, "/tfplugin6.Provider/GetProviderSchema"},
		{5, opValidateProvider, "/tfplugin5.Provider/PrepareProviderConfig"},
		{6, opValidateProvider, "/tfplugin6.Provider/ValidateProviderConfig"},
		{5, opValidateResource, "/tfplugin5.Provider/ValidateResourceTypeConfig"},
		{6, opValidateData, "/tfplugin6.Provider/ValidateDataResourceConfig"},
		{5, opConfigure, "/tfplugin5.Provider/Configure"},
		{6, opStop, "/tfplugin6.Provider/StopProvider"},
		{5, opStop, "/tfplugin5.Provider/Stop"},
		{6, opCallFunction, "/tfplugin6.Provider/CallFunction"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := protos[tt.version].rpcs[tt.op].path; got != tt.path {
				t.Errorf("path = %q, want %q", got, tt.path)
			}
		})
	}
	for _, v := range []int{5, 6} {
		for o := op(0); o < numOps; o++ {
			r := protos[v].rpcs[o]
			if r.in == nil || r.out == nil || r.path == "" {
				t.Errorf("protocol %d op %d unresolved: %+v", v, o, r)
			}
			// Every field is settable on a fresh message: a typo in the
			// table or the code would have failed above or panics here.
			m := r.in.New()
			for _, f := range rpcSpecs[o].req {
				_ = field(m, f)
			}
		}
	}
	if err := checkFields(protos[6].rpcs[opPlan].in.Descriptor(), []string{"no_such_field"}); err == nil {
		t.Error("checkFields accepted a field that does not exist")
	}
}

func TestPluginEnv(t *testing.T) {
	host := []string{"HOME=/root", "TF_LOG_SDK_PROTO=TRACE", "TF_LOG_PROVIDER_X=1", "PATH=/bin"}
	lookup := func(env map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	}
	tests := []struct {
		name string
		set  map[string]string
		want []string
	}{
		{"logs off by default", nil, append([]string{"HOME=/root", "PATH=/bin"}, sdkLogVars...)},
		{"TF_LOG=off is not a request", map[string]string{"TF_LOG": "off"}, append([]string{"HOME=/root", "PATH=/bin"}, sdkLogVars...)},
		{"TF_LOG_PROVIDER passes everything", map[string]string{"TF_LOG_PROVIDER": "DEBUG"}, host},
		{"TF_LOG passes everything", map[string]string{"TF_LOG": "trace"}, host},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, pluginEnv(host, lookup(tt.set))); d != "" {
				t.Errorf("environment (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseReattachProviders(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]*goplugin.ReattachConfig
		wantErr string
	}{
		{"unix v6", `{"registry.opentofu.org/hashicorp/time":{"Protocol":"grpc","ProtocolVersion":6,"Pid":42,"Test":true,"Addr":{"Network":"unix","String":"/tmp/p.sock"}}}`,
			map[string]*goplugin.ReattachConfig{"registry.opentofu.org/hashicorp/time": {
				Protocol: goplugin.ProtocolGRPC, ProtocolVersion: 6, Pid: 42, Test: true, Addr: &net.UnixAddr{Name: "/tmp/p.sock", Net: "unix"}}}, ""},
		{"no version means 5", `{"hashicorp/null":{"Protocol":"grpc","Pid":1,"Addr":{"Network":"tcp","String":"127.0.0.1:9000"}}}`,
			map[string]*goplugin.ReattachConfig{"hashicorp/null": {
				Protocol: goplugin.ProtocolGRPC, ProtocolVersion: 5, Pid: 1, Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9000}}}, ""},
		{"not json", `{`, nil, "not valid JSON"},
		{"netrpc", `{"a":{"Protocol":"netrpc","Addr":{"Network":"unix","String":"/x"}}}`, nil, "only grpc"},
		{"protocol 4", `{"a":{"ProtocolVersion":4,"Addr":{"Network":"unix","String":"/x"}}}`, nil, "supports 5 and 6"},
		{"bad network", `{"a":{"Addr":{"Network":"udp","String":"/x"}}}`, nil, "unsupported network"},
		{"no address", `{"a":{"Addr":{"Network":"unix"}}}`, nil, "no address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReattachProviders(tt.in)
			if !errorAsWanted(t, err, tt.wantErr) {
				return
			}
			if d := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b net.Addr) bool { return a.Network() == b.Network() && a.String() == b.String() })); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// FuzzParseReattachProviders: the variable comes from the user's
// environment; any input gives configs or an error, never a panic, and
// every config names grpc, a supported version and an address.
func FuzzParseReattachProviders(f *testing.F) {
	f.Add(`{"a/b":{"Protocol":"grpc","ProtocolVersion":6,"Pid":1,"Test":true,"Addr":{"Network":"unix","String":"/tmp/x"}}}`)
	f.Add(`{"a":{"Addr":{"Network":"tcp","String":"[::1]:80"}}}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseReattachProviders(s)
		if err != nil {
			return
		}
		for name, rc := range got {
			if rc.Protocol != goplugin.ProtocolGRPC || (rc.ProtocolVersion != 5 && rc.ProtocolVersion != 6) || rc.Addr == nil {
				t.Fatalf("%q: invalid config %+v", name, rc)
			}
		}
	})
}

// fuzzBlock has an attribute of every kind of type, nested attributes of
// every mode, and blocks of every mode including the dynamic ones.
func fuzzBlock() *providers.Block {
	inner := func() providers.Block {
		return providers.Block{Attributes: map[string]*providers.Attribute{"x": {Type: cty.String, Optional: true}}}
	}
	dyn := providers.Block{Attributes: map[string]*providers.Attribute{"d": {Type: cty.DynamicPseudoType, Optional: true}}}
	b := &providers.Block{
		Attributes: map[string]*providers.Attribute{
			"s": {Type: cty.String, Optional: true}, "n": {Type: cty.Number, Optional: true}, "b": {Type: cty.Bool, Optional: true},
			"l": {Type: cty.List(cty.String), Optional: true}, "m": {Type: cty.Map(cty.Number), Optional: true},
			"set": {Type: cty.Set(cty.Bool), Optional: true}, "dyn": {Type: cty.DynamicPseudoType, Optional: true},
			"t": {Type: cty.Tuple([]cty.Type{cty.String, cty.Number}), Optional: true},
		},
		BlockTypes: map[string]*providers.NestedBlock{
			"single": {Block: inner(), Nesting: providers.NestingSingle}, "group": {Block: inner(), Nesting: providers.NestingGroup},
			"list": {Block: inner(), Nesting: providers.NestingList}, "bset": {Block: inner(), Nesting: providers.NestingSet},
			"map":   {Block: inner(), Nesting: providers.NestingMap},
			"dlist": {Block: dyn, Nesting: providers.NestingList}, "dmap": {Block: dyn, Nesting: providers.NestingMap},
		},
	}
	for name, mode := range map[string]providers.NestingMode{"os": providers.NestingSingle, "ol": providers.NestingList, "oset": providers.NestingSet, "om": providers.NestingMap} {
		b.Attributes[name] = &providers.Attribute{Optional: true, NestedType: &providers.Object{Nesting: mode,
			Attributes: map[string]*providers.Attribute{"a": {Type: cty.String, Optional: true}}}}
	}
	return b
}

// FuzzDecodeDynamic feeds arbitrary msgpack and JSON, as a provider
// might send, through the decoding of DynamicValues against a schema's
// implied type: a value of that type or an error, never a panic.
func FuzzDecodeDynamic(f *testing.F) {
	b := fuzzBlock()
	ty := b.ImpliedType()
	protos, err := loadProtocols()
	if err != nil {
		f.Fatal(err)
	}
	planResp := protos[6].rpcs[opPlan].out
	seed, err := ctymsgpack.Marshal(b.EmptyValue(), ty)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, false)
	f.Add([]byte(`{"s":"x","dyn":{"value":1,"type":"number"},"t":["a",1]}`), true)
	f.Add([]byte{0xd4, 0, 0}, false) // an unknown
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		resp := planResp.New()
		dv := mutable(resp, "planned_state")
		if asJSON {
			setBytes(dv, "json", data)
		} else {
			setBytes(dv, "msgpack", data)
		}
		v, diags := decodeField(resp, "planned_state", ty, "PlanResourceChange", "planned state", nil)
		if diags.HasErrors() {
			if !strings.Contains(diags[0].Detail, "PlanResourceChange") {
				t.Fatalf("diagnostic does not name the RPC: %+v", diags[0])
			}
			return
		}
		if errs := v.Type().TestConformance(ty); errs != nil {
			t.Fatalf("decoded a %#v, which does not conform to the implied type: %v", v.Type(), errs)
		}
	})
}

// FuzzDecodeSchema: a schema message built from arbitrary type bytes is
// converted or refused with an error, never a panic.
func FuzzDecodeSchema(f *testing.F) {
	protos, err := loadProtocols()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`"string"`), int32(2))
	f.Add([]byte(`["object",{"a":["list","dynamic"]}]`), int32(5))
	f.Add([]byte(`["map"]`), int32(9))
	f.Fuzz(func(t *testing.T, typ []byte, nesting int32) {
		resp := protos[6].rpcs[opGetSchema].out.New()
		block := mutable(mutable(resp, "provider"), "block")
		attrs := block.Mutable(field(block, "attributes")).List()
		a := attrs.NewElement()
		setString(a.Message(), "name", "a")
		setBytes(a.Message(), "type", typ)
		attrs.Append(a)
		blocks := block.Mutable(field(block, "block_types")).List()
		nb := blocks.NewElement()
		setString(nb.Message(), "type_name", "b")
		nb.Message().Set(field(nb.Message(), "nesting"), protoreflect.ValueOfEnum(protoreflect.EnumNumber(nesting)))
		blocks.Append(nb)
		s, err := decodeSchemaResponse(resp)
		if err != nil {
			return
		}
		_ = s.Provider.Block.ImpliedType()
		names := make([]string, 0)
		for n := range s.Provider.Block.Attributes {
			names = append(names, n)
		}
		sort.Strings(names)
		if d := cmp.Diff([]string{"a"}, names); d != "" {
			t.Fatalf("attributes (-want +got):\n%s", d)
		}
	})
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name      string
		writes    []string
		max       int
		want      string
		wantPanic string
	}{
		{"short", []string{"a\n", "b\n"}, 8, "a\nb\n", ""},
		{"keeps the last max bytes", []string{"0123456789", "abcdefghij", "KLMNOPQRST"}, 8, "MNOPQRST", ""},
		{"panic quoted from its start", []string{"log line\n", "panic: boom\n", "goroutine 1 [running]:\n"}, 64, "log line\npanic: boom\ngoroutine 1 [running]:\n", "panic: boom\ngoroutine 1 [running]:"},
		{"fatal error", []string{"fatal error: concurrent map writes\n"}, 64, "fatal error: concurrent map writes\n", "fatal error: concurrent map writes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &tailBuffer{max: tt.max}
			for _, w := range tt.writes {
				tb.Write([]byte(w))
			}
			if d := cmp.Diff(tt.want, tb.String()); d != "" {
				t.Errorf("String() (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantPanic, tb.panicOutput()); d != "" {
				t.Errorf("panicOutput() (-want +got):\n%s", d)
			}
		})
	}
}

// TestDecodeDynamic covers both encodings, absent values and the
// failures a provider can cause.
func TestDecodeDynamic(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "d": cty.DynamicPseudoType})
	mp := func(v cty.Value) []byte {
		b, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	val := cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x"), "d": cty.ListVal([]cty.Value{cty.True})})
	unknown := cty.ObjectVal(map[string]cty.Value{"s": cty.UnknownVal(cty.String).RefineNotNull(), "d": cty.DynamicVal})
	protos, err := loadProtocols()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		msgpack []byte
		json    []byte
		absent  bool
		want    cty.Value
		wantErr string
	}{
		{"msgpack", mp(val), nil, false, val, ""},
		{"msgpack unknowns with refinements", mp(unknown), nil, false, unknown, ""},
		{"json fallback", nil, []byte(`{"s":"x","d":{"value":[true],"type":["list","bool"]}}`), false, val, ""},
		{"absent is null", nil, nil, true, cty.NullVal(ty), ""},
		{"empty is null", nil, nil, false, cty.NullVal(ty), ""},
		{"truncated", mp(val)[:3], nil, false, cty.NilVal, "EOF"},
		{"a string for an object", []byte{0xa1, 'x'}, nil, false, cty.NilVal, "object"},
		{"an attribute missing", []byte{0x81, 0xa1, 's', 0xa1, 'x'}, nil, false, cty.NilVal, "2 attributes is required"},
		{"no attributes", []byte{0x80}, nil, false, cty.NilVal, "missing required attribute"},
		{"json with an unknown attribute", nil, []byte(`{"s":"x","z":true}`), false, cty.NilVal, `"z"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := protos[5].rpcs[opRead].out.New()
			if !tt.absent {
				dv := mutable(resp, "new_state")
				setBytes(dv, "msgpack", tt.msgpack)
				setBytes(dv, "json", tt.json)
			}
			got, err := decodeDynamic(getMsg(resp, "new_state"), ty)
			if !errorAsWanted(t, err, tt.wantErr) {
				return
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// errorAsWanted fails t unless err contains want, or is nil when want is
// ""; it reports whether err is nil, so that there is a result to check.
func errorAsWanted(t *testing.T, err error, want string) bool {
	t.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one containing %q", err, want)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}
