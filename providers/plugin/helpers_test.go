package plugin_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers/plugin"
)

var (
	binDir   string
	buildMu  sync.Mutex
	builtBin string
	buildErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tenet-plugin-test")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testProvider builds the test provider once per test binary, on first
// need, so runs that need no plugin (the fuzz targets) pay nothing.
func testProvider(t testing.TB) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if builtBin == "" && buildErr == nil {
		bin := filepath.Join(binDir, "terraform-provider-test")
		cmd := exec.Command("go", "build", "-o", bin, "./internal/testprovider/cmd/testprovider")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = err
			t.Fatalf("building the test provider: %v\n%s", err, out)
		}
		builtBin = bin
	}
	if buildErr != nil {
		t.Fatalf("the test provider did not build: %v", buildErr)
	}
	return builtBin
}

// start launches the test provider speaking protocol, with the given
// misbehaviour ("" for none), and closes it when the test ends.
func start(t *testing.T, protocol int, misbehave string, mtls bool) *plugin.Client {
	t.Helper()
	c, err := plugin.New(config(t, protocol, misbehave, mtls))
	if err != nil {
		t.Fatalf("starting the test provider: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c.Close(ctx)
	})
	return c
}

func config(t testing.TB, protocol int, misbehave string, mtls bool) plugin.Config {
	args := []string{"-protocol", map[int]string{5: "5", 6: "6"}[protocol]}
	if misbehave != "" {
		args = append(args, "-misbehave", misbehave)
	}
	return plugin.Config{
		Name:             "tenet/test",
		Path:             testProvider(t),
		Args:             args,
		DisableAutoMTLS:  !mtls,
		StartTimeout:     20 * time.Second,
		StopTimeout:      time.Second,
		TerraformVersion: "1.10.0",
		LookupEnv:        func(string) (string, bool) { return "", false },
	}
}

// with returns obj with some attributes replaced.
func with(obj cty.Value, attrs map[string]cty.Value) cty.Value {
	vals := obj.AsValueMap()
	for k, v := range attrs {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}
