package plugin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
	"github.com/tenetplan/tenet/providers/plugin/internal/testprovider"
)

// createPlan is a create of a minimal test_thing.
func createPlan(t *testing.T, c *plugin.Client, ctx context.Context) providers.PlanResourceChangeResponse {
	t.Helper()
	s := c.GetProviderSchema(context.Background())
	if s.Diagnostics.HasErrors() {
		t.Fatalf("schema: %+v", s.Diagnostics)
	}
	b := s.ResourceTypes["test_thing"].Block
	cfg := with(b.EmptyValue(), map[string]cty.Value{"name": cty.StringVal("n")})
	return c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: "test_thing", PriorState: cty.NullVal(b.ImpliedType()), ProposedNewState: cfg, Config: cfg,
	})
}

// TestMisbehavingCalls: a plugin that panics mid-call or answers with a
// value of the wrong type yields a diagnostic naming the call, never a
// panic in tenet.
func TestMisbehavingCalls(t *testing.T) {
	tests := []struct {
		misbehave   string
		protocol    int
		wantSummary string
		wantDetail  []string
	}{
		{"panic", 6, "Plugin did not respond", []string{"PlanResourceChange", "panic: test provider: planning went wrong", "goroutine"}},
		{"panic", 5, "Plugin did not respond", []string{"PlanResourceChange", "panic: test provider: planning went wrong"}},
		{"wrongtype", 6, "Invalid response from provider", []string{"PlanResourceChange", "planned state", "object"}},
		{"wrongtype", 5, "Invalid response from provider", []string{"PlanResourceChange", "planned state"}},
	}
	for _, tt := range tests {
		t.Run(tt.misbehave+"/v"+string(rune('0'+tt.protocol)), func(t *testing.T) {
			c := start(t, tt.protocol, tt.misbehave, false)
			resp := createPlan(t, c, context.Background())
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != tt.wantSummary {
				t.Fatalf("diagnostics = %+v, want one %q", resp.Diagnostics, tt.wantSummary)
			}
			for _, want := range tt.wantDetail {
				if !strings.Contains(resp.Diagnostics[0].Detail, want) {
					t.Errorf("detail does not mention %q:\n%s", want, resp.Diagnostics[0].Detail)
				}
			}
		})
	}
}

// TestStartFailures: plugins that cannot be started give an error that
// says why.
func TestStartFailures(t *testing.T) {
	tests := []struct {
		name      string
		misbehave string
		path      string
		want      []string
	}{
		{"exits at handshake", "exit", "", []string{"failed to start provider tenet/test", "exited before completing the handshake", "refusing to start"}},
		{"protocol 4 only", "proto4", "", []string{"unsupported plugin protocol"}},
		{"no such executable", "", "/nonexistent/terraform-provider-x", []string{"failed to start provider tenet/test", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(t, 6, tt.misbehave, false)
			if tt.path != "" {
				cfg.Path = tt.path
			}
			cfg.StartTimeout = 5 * time.Second
			c, err := plugin.New(cfg)
			if err == nil {
				c.Close(context.Background())
				t.Fatal("New succeeded")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not mention %q: %v", want, err)
				}
			}
		})
	}
}

// TestHang: a call whose context ends returns at once; the plugin, which
// ignores StopProvider too, is then killed.
func TestHang(t *testing.T) {
	c := start(t, 6, "hang", false)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	resp := createPlan(t, c, ctx)
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("the cancelled call took %s", took)
	}
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Provider operation interrupted" {
		t.Fatalf("diagnostics = %+v", resp.Diagnostics)
	}
	// StopTimeout is 1s in tests; after it the process is gone and calls
	// fail fast.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := c.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "test_thing",
			Config: cty.NullVal(c.GetProviderSchema(context.Background()).ResourceTypes["test_thing"].Block.ImpliedType())})
		if r.Diagnostics.HasErrors() {
			if got := r.Diagnostics[0].Summary; got != "Plugin did not respond" {
				t.Errorf("after the kill: %q, want \"Plugin did not respond\"", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hung plugin was not killed")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestReattach attaches to a provider served in this test process in
// debug mode, as TF_REATTACH_PROVIDERS describes one.
func TestReattach(t *testing.T) {
	t.Setenv("TF_LOG_SDK", "OFF") // the server runs in this process
	ctx, cancel := context.WithCancel(context.Background())
	configs := make(chan *goplugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go func() {
		err := tf6server.Serve("registry.opentofu.org/tenet/test",
			func() tfprotov6.ProviderServer { return testprovider.NewServer6() },
			tf6server.WithDebug(ctx, configs, closed), tf6server.WithoutLogStderrOverride(),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()))
		if err != nil {
			t.Errorf("serving: %v", err)
		}
	}()
	var rc *goplugin.ReattachConfig
	select {
	case rc = <-configs:
	case <-time.After(10 * time.Second):
		t.Fatal("the debug server did not start")
	}
	c, err := plugin.New(plugin.Config{Name: "tenet/test", Reattach: rc})
	if err != nil {
		t.Fatalf("reattach: %v", err)
	}
	if got := c.ProtocolVersion(); got != 6 {
		t.Errorf("protocol %d, want 6", got)
	}
	got := c.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "upper", Arguments: []cty.Value{cty.StringVal("x")}})
	if got.Err != nil || !got.Result.RawEquals(cty.StringVal("X")) {
		t.Errorf("upper(x) = %#v, %v", got.Result, got.Err)
	}
	if err := c.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
	// Close leaves a reattached provider running.
	if s := createPlanAfterClose(rc); s != "" {
		t.Errorf("the provider did not survive Close: %s", s)
	}
	cancel()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Error("the debug server did not stop")
	}
}

func createPlanAfterClose(rc *goplugin.ReattachConfig) string {
	c, err := plugin.New(plugin.Config{Name: "tenet/test", Reattach: rc})
	if err != nil {
		return err.Error()
	}
	defer c.Close(context.Background())
	if s := c.GetProviderSchema(context.Background()); s.Diagnostics.HasErrors() {
		return s.Diagnostics[0].Detail
	}
	return ""
}
