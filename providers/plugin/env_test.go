package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/plugin"
)

func getenv(t *testing.T, c *plugin.Client, name string) string {
	t.Helper()
	r := c.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "getenv", Arguments: []cty.Value{cty.StringVal(name)}})
	if r.Err != nil {
		t.Fatalf("getenv(%s): %v", name, r.Err)
	}
	return r.Result.AsString()
}

// TestPluginEnvironment checks what the plugin process actually sees:
// SDK logs off and the user's SDK levels overridden unless provider logs
// were asked for, and Config.Env added.
func TestPluginEnvironment(t *testing.T) {
	tests := []struct {
		name string
		user map[string]string
		want map[string]string
	}{
		{"logs off", map[string]string{"TF_LOG_SDK": "TRACE", "HOME": "/home/u"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_PROVIDER": "OFF", "HOME": "/home/u", "EXTRA": "yes"}},
		{"provider logs asked for", map[string]string{"TF_LOG_PROVIDER": "WARN", "TF_LOG_SDK": "TRACE"},
			map[string]string{"TF_LOG_SDK": "TRACE", "TF_LOG_SDK_PROTO": "", "TF_LOG_PROVIDER": "WARN", "EXTRA": "yes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(t, 6, "", false)
			cfg.LookupEnv = func(k string) (string, bool) { v, ok := tt.user[k]; return v, ok }
			cfg.Environ = func() []string {
				var env []string
				for k, v := range tt.user {
					env = append(env, k+"="+v)
				}
				return env
			}
			cfg.Env = []string{"EXTRA=yes"}
			c, err := plugin.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(context.Background())
			for k, want := range tt.want {
				if got := getenv(t, c, k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

// TestProviderLogsToFile: with TF_LOG_PROVIDER set, the plugin's log
// lines go to TF_LOG_PATH.
func TestProviderLogsToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "provider.log")
	user := map[string]string{"TF_LOG_PROVIDER": "TRACE", "TF_LOG_PATH": path}
	cfg := config(t, 6, "", false)
	cfg.LookupEnv = func(k string) (string, bool) { v, ok := user[k]; return v, ok }
	cfg.Environ = func() []string { return []string{"TF_LOG_PROVIDER=TRACE"} }
	c, err := plugin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	getenv(t, c, "HOME")
	c.Close(context.Background())
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "CallFunction") {
		t.Errorf("the log file does not mention the call:\n%s", b)
	}
}

// TestConcurrentCalls runs calls from many goroutines over one client.
func TestConcurrentCalls(t *testing.T) {
	c := start(t, 6, "", false)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				r := c.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "sum",
					Arguments: []cty.Value{cty.NumberIntVal(int64(g)), cty.NumberIntVal(int64(i))}})
				if r.Err != nil || !r.Result.RawEquals(cty.NumberIntVal(int64(g+i))) {
					errs <- r.Result.GoString()
					return
				}
				if p := createPlan(t, c, context.Background()); p.Diagnostics.HasErrors() {
					errs <- p.Diagnostics[0].Detail
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkPlan measures one PlanResourceChange round trip to a thin
// protocol 6 plugin.
func BenchmarkPlan(b *testing.B) {
	c, err := plugin.New(config(b, 6, "", true))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	s := c.GetProviderSchema(context.Background())
	blk := s.ResourceTypes["test_thing"].Block
	cfg := with(blk.EmptyValue(), map[string]cty.Value{"name": cty.StringVal("n")})
	req := providers.PlanResourceChangeRequest{TypeName: "test_thing", PriorState: cty.NullVal(blk.ImpliedType()), ProposedNewState: cfg, Config: cfg}
	b.ResetTimer()
	for b.Loop() {
		if r := c.PlanResourceChange(context.Background(), req); r.Diagnostics.HasErrors() {
			b.Fatal(r.Diagnostics)
		}
	}
}
