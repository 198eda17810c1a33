package localexec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/provisioners"
)

// Type is the provisioner type name used in configuration.
const Type = "local-exec"

// outputKept is how much of the command's last output a failure quotes,
// as OpenTofu's does; the rest has been shown as it came.
const outputKept = 8 * 1024

// Provisioner runs local commands. The zero value is ready to use.
type Provisioner struct{}

var _ provisioners.Interface = Provisioner{}

var schema = &providers.Block{Attributes: map[string]*providers.Attribute{
	"command":     {Type: cty.String, Required: true},
	"interpreter": {Type: cty.List(cty.String), Optional: true},
	"working_dir": {Type: cty.String, Optional: true},
	"environment": {Type: cty.Map(cty.String), Optional: true},
	"quiet":       {Type: cty.Bool, Optional: true},
}}

// Schema gives local-exec's arguments.
func (Provisioner) Schema() *providers.Block { return schema }

// ValidateConfig has nothing to add to the schema's checks: every value
// the schema lets through can be run.
func (Provisioner) ValidateConfig(context.Context, provisioners.ValidateConfigRequest) provisioners.ValidateConfigResponse {
	return provisioners.ValidateConfigResponse{}
}

// Provision runs the command and waits for it.
func (Provisioner) Provision(ctx context.Context, req provisioners.ProvisionRequest) provisioners.ProvisionResponse {
	var resp provisioners.ProvisionResponse
	cfg := req.Config
	command := stringAttr(cfg, "command")
	if command == "" {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Invalid local-exec provisioner command", "The command must be a non-empty string.")
		return resp
	}
	args := shell()
	if v := cfg.GetAttr("interpreter"); !v.IsNull() && v.LengthInt() > 0 {
		args = nil
		for _, e := range v.AsValueSlice() {
			if !e.IsNull() {
				args = append(args, e.AsString())
			}
		}
	}
	args = append(args, command)
	env := os.Environ()
	if v := cfg.GetAttr("environment"); !v.IsNull() {
		for k, e := range v.AsValueMap() {
			if !e.IsNull() {
				env = append(env, k+"="+e.AsString())
			}
		}
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "local-exec provisioner error", fmt.Sprintf("Failed to initialize pipe for output: %s", err))
		return resp
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	// Both streams share one pipe the command writes to directly, so
	// their lines interleave as the command wrote them.
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.Dir = stringAttr(cfg, "working_dir")
	cmd.Env = env

	tail := &tailBuffer{max: outputKept}
	linesDone := make(chan struct{})
	go func() {
		defer close(linesDone)
		provisioners.ReadLines(io.TeeReader(pr, tail), req.Output)
	}()
	if v := cfg.GetAttr("quiet"); !v.IsNull() && v.True() {
		req.Output("local-exec: Executing: Suppressed by quiet=true")
	} else {
		req.Output(fmt.Sprintf("Executing: %q", args))
	}
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	pw.Close()
	// A process the command left running in the background may hold the
	// pipe open: stop waiting for its output when the run is stopped.
	select {
	case <-linesDone:
	case <-ctx.Done():
	}
	if err != nil {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "local-exec provisioner error",
			fmt.Sprintf("Error running command '%s': %v. Output: %s", command, err, tail.Bytes()))
	}
	return resp
}

func shell() []string {
	if runtime.GOOS == "windows" {
		return []string{"cmd", "/C"}
	}
	return []string{"/bin/sh", "-c"}
}

func stringAttr(obj cty.Value, name string) string {
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}

// tailBuffer keeps the last max bytes written to it. A stopped run may
// read it while a background process still writes.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.buf)
}
