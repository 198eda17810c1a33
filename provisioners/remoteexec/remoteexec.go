package remoteexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/sshconn"
)

// Type is the provisioner type name used in configuration.
const Type = "remote-exec"

// Provisioner runs scripts on another machine. The zero value is ready.
type Provisioner struct{}

var _ provisioners.Interface = Provisioner{}

var schema = &providers.Block{Attributes: map[string]*providers.Attribute{
	"inline":  {Type: cty.List(cty.String), Optional: true},
	"script":  {Type: cty.String, Optional: true},
	"scripts": {Type: cty.List(cty.String), Optional: true},
}}

// Schema gives remote-exec's arguments.
func (Provisioner) Schema() *providers.Block { return schema }

// ValidateConfig requires exactly one of inline, script and scripts.
func (Provisioner) ValidateConfig(_ context.Context, req provisioners.ValidateConfigRequest) provisioners.ValidateConfigResponse {
	var resp provisioners.ValidateConfigResponse
	set := 0
	for _, name := range []string{"inline", "script", "scripts"} {
		if !req.Config.GetAttr(name).IsNull() {
			set++
		}
	}
	if set != 1 {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Invalid remote-exec provisioner configuration", `Only one of "inline", "script", or "scripts" must be set`)
	}
	if err := sshconn.Unsupported(req.Connection); err != nil {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Unsupported connection", err.Error())
	}
	return resp
}

// Provision connects and runs the scripts one after another.
func (Provisioner) Provision(ctx context.Context, req provisioners.ProvisionRequest) provisioners.ProvisionResponse {
	var resp provisioners.ProvisionResponse
	fail := func(err error) provisioners.ProvisionResponse {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "remote-exec provisioner error", err.Error())
		return resp
	}
	conn, err := sshconn.Open(req.Connection)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	scripts, err := collectScripts(req.Config)
	if err != nil {
		return fail(err)
	}
	if err := run(ctx, conn, conn.Info(), scripts, req.Output); err != nil {
		return fail(err)
	}
	return resp
}

// collectScripts gives the inline commands as one script (one command a
// line), or the contents of the script files.
func collectScripts(cfg cty.Value) ([][]byte, error) {
	if inline := cfg.GetAttr("inline"); !inline.IsNull() {
		var lines []string
		for _, l := range inline.AsValueSlice() {
			if l.IsNull() {
				return nil, errors.New("invalid null string in 'scripts'")
			}
			if l.AsString() == "" {
				return nil, errors.New("invalid empty string in 'scripts'")
			}
			lines = append(lines, l.AsString())
		}
		return [][]byte{[]byte(strings.Join(append(lines, ""), "\n"))}, nil
	}
	var paths []string
	if s := cfg.GetAttr("script"); !s.IsNull() {
		if s.AsString() == "" {
			return nil, errors.New("invalid empty string in 'script'")
		}
		paths = append(paths, s.AsString())
	}
	if list := cfg.GetAttr("scripts"); !list.IsNull() {
		for _, s := range list.AsValueSlice() {
			if s.IsNull() {
				return nil, errors.New("invalid null string in 'script'")
			}
			if s.AsString() == "" {
				return nil, errors.New("invalid empty string in 'script'")
			}
			paths = append(paths, s.AsString())
		}
	}
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("Failed to open script '%s': %w", p, err)
		}
		out = append(out, data)
	}
	return out, nil
}

func run(ctx context.Context, conn *sshconn.Conn, info *sshconn.Info, scripts [][]byte, output func(string)) error {
	retryCtx, cancel := context.WithTimeout(ctx, conn.Timeout())
	defer cancel()
	if err := conn.ConnectRetrying(retryCtx, output); err != nil {
		return err
	}
	// A stopped run drops the connection, which ends the script in flight.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	for _, script := range scripts {
		path := strings.ReplaceAll(info.ScriptPath, "%RAND%", strconv.FormatInt(int64(rand.Int32()), 10))
		if err := conn.UploadScript(path, bytes.NewReader(script)); err != nil {
			return fmt.Errorf("Failed to upload script: %w", err)
		}
		pr, pw := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			provisioners.ReadLines(pr, output)
		}()
		err := conn.Run(path, pw, pw)
		pw.Close()
		<-done
		if err != nil {
			return err
		}
		// Leave no script contents behind; best effort, as OpenTofu.
		_ = conn.Upload(path, bytes.NewReader(nil))
	}
	return nil
}
