package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/sshconn"
)

// Type is the provisioner type name used in configuration.
const Type = "file"

// Provisioner copies files to another machine. The zero value is ready.
type Provisioner struct{}

var _ provisioners.Interface = Provisioner{}

var schema = &providers.Block{Attributes: map[string]*providers.Attribute{
	"source":      {Type: cty.String, Optional: true},
	"content":     {Type: cty.String, Optional: true},
	"destination": {Type: cty.String, Required: true},
}}

// Schema gives the file provisioner's arguments.
func (Provisioner) Schema() *providers.Block { return schema }

// ValidateConfig requires exactly one of source and content.
func (Provisioner) ValidateConfig(_ context.Context, req provisioners.ValidateConfigRequest) provisioners.ValidateConfigResponse {
	var resp provisioners.ValidateConfigResponse
	source, content := req.Config.GetAttr("source"), req.Config.GetAttr("content")
	switch {
	case !source.IsNull() && !content.IsNull():
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Cannot set both 'source' and 'content'", "")
	case source.IsNull() && content.IsNull():
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Must provide one of 'source' or 'content'", "")
	}
	if err := sshconn.Unsupported(req.Connection); err != nil {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "Unsupported connection", err.Error())
	}
	return resp
}

// Provision connects and copies.
func (Provisioner) Provision(ctx context.Context, req provisioners.ProvisionRequest) provisioners.ProvisionResponse {
	var resp provisioners.ProvisionResponse
	fail := func(err error) provisioners.ProvisionResponse {
		resp.Diagnostics = resp.Diagnostics.Errorf(nil, "file provisioner error", err.Error())
		return resp
	}
	conn, err := sshconn.Open(req.Connection)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	src, remove, err := source(req.Config)
	if remove {
		defer os.Remove(src)
	}
	if err != nil {
		return fail(err)
	}
	if err := copyFiles(ctx, conn, src, req.Config.GetAttr("destination").AsString()); err != nil {
		return fail(err)
	}
	return resp
}

// source is the local path to copy: the source (with ~ expanded), or a
// temporary file holding the content, which remove says to delete.
func source(cfg cty.Value) (path string, remove bool, err error) {
	if c := cfg.GetAttr("content"); !c.IsNull() {
		f, err := os.CreateTemp("", "tf-file-content")
		if err != nil {
			return "", false, err
		}
		defer f.Close()
		if _, err := f.WriteString(c.AsString()); err != nil {
			return f.Name(), true, err
		}
		return f.Name(), true, nil
	}
	if s := cfg.GetAttr("source"); !s.IsNull() {
		p, err := expandHome(s.AsString())
		return p, false, err
	}
	return "", false, errors.New("source and content cannot both be null")
}

// expandHome expands a leading ~ to the home directory.
func expandHome(p string) (string, error) {
	if p == "" || p[0] != '~' {
		return p, nil
	}
	if len(p) > 1 && p[1] != '/' && p[1] != '\\' {
		return "", errors.New("cannot expand user-specific home dir")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(p[1:], "/")), nil
}

func copyFiles(ctx context.Context, conn *sshconn.Conn, src, dst string) error {
	retryCtx, cancel := context.WithTimeout(ctx, conn.Timeout())
	defer cancel()
	if err := conn.ConnectRetrying(retryCtx, nil); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if err := conn.UploadDir(dst, src); err != nil {
			return fmt.Errorf("Upload failed: %w", err)
		}
		return nil
	}
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := conn.Upload(dst, f); err != nil {
		return fmt.Errorf("Upload failed: %w", err)
	}
	return nil
}
