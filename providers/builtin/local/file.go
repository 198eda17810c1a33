package local

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// contentArgs are the mutually exclusive ways to give a file's content.
var contentArgs = []string{"content", "sensitive_content", "content_base64", "source"}

var hashAttributes = map[string]string{
	"content_md5":          "MD5 of the content, hexadecimal.",
	"content_sha1":         "SHA-1 of the content, hexadecimal.",
	"content_sha256":       "SHA-256 of the content, hexadecimal.",
	"content_base64sha256": "SHA-256 of the content, base64.",
	"content_sha512":       "SHA-512 of the content, hexadecimal.",
	"content_base64sha512": "SHA-512 of the content, base64.",
}

func fileSchema(sensitive bool) *providers.Block {
	perm := "0777"
	desc := "A file on the machine running tenet."
	if sensitive {
		perm = "0700"
		desc = "A file on the machine running tenet whose content is sensitive and never shown."
	}
	b := &providers.Block{
		Description: desc,
		Attributes: map[string]*providers.Attribute{
			"filename": {Type: cty.String, Required: true,
				Description: "The path of the file; relative paths start at the working directory. Missing directories are created."},
			"content": {Type: cty.String, Optional: true, Sensitive: sensitive,
				Description: "The file's content as text. Exactly one of content, content_base64 or source is required."},
			"content_base64": {Type: cty.String, Optional: true, Sensitive: sensitive,
				Description: "The file's content as base64, for binary data."},
			"source": {Type: cty.String, Optional: true,
				Description: "The path of a file whose content to copy."},
			"file_permission": {Type: cty.String, Optional: true, Computed: true,
				Description: "The file's permission bits in octal (default \"" + perm + "\")."},
			"directory_permission": {Type: cty.String, Optional: true, Computed: true,
				Description: "The permission bits in octal of directories created for the file (default \"" + perm + "\")."},
			"id": {Type: cty.String, Computed: true, Description: "SHA-1 of the content, hexadecimal."},
		},
	}
	if !sensitive {
		b.Attributes["sensitive_content"] = &providers.Attribute{Type: cty.String, Optional: true, Sensitive: true, Deprecated: true,
			Description: "Deprecated: use local_sensitive_file. The file's content, hidden from output."}
	}
	for name, d := range hashAttributes {
		b.Attributes[name] = &providers.Attribute{Type: cty.String, Computed: true, Description: d}
	}
	return b
}

func (p *Provider) fileResource(sensitive bool) *kit.Resource {
	schema := fileSchema(sensitive)
	perm := cty.StringVal("0777")
	if sensitive {
		perm = cty.StringVal("0700")
	}
	planner := &kit.Planner{Schema: schema, Defaults: map[string]cty.Value{"file_permission": perm, "directory_permission": perm}}
	return &kit.Resource{
		Schema:   providers.Schema{Block: schema},
		Validate: validateFile,
		Planner:  planner,
		Apply:    p.applyFile,
		Read:     p.readFile,
		Import:   refuseImport,
	}
}

// refuseImport answers as hashicorp/local does: its file resources do not
// implement import, so its plugin framework refuses every import with this
// diagnostic.
func refuseImport(context.Context, providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return providers.ImportResourceStateResponse{Diagnostics: providers.Diagnostics{}.Errorf(nil,
		"Resource Import Not Implemented",
		"This resource does not support import. Please contact the provider developer for additional information.")}
}

func validateFile(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	set, unknown := []string{}, false
	for _, name := range contentArgs {
		if !config.Type().HasAttribute(name) {
			continue
		}
		v := config.GetAttr(name)
		switch {
		case !v.IsKnown():
			unknown = true
		case !v.IsNull():
			set = append(set, name)
		}
	}
	switch {
	case len(set) > 1:
		diags = diags.Errorf(cty.GetAttrPath(set[1]), "Conflicting file content",
			fmt.Sprintf("Both %s and %s give the file's content. Keep only one of them.", set[0], set[1]))
	case len(set) == 0 && !unknown:
		diags = diags.Errorf(nil, "Missing file content",
			"A local file needs its content: set exactly one of content, content_base64 or source.")
	}
	if v, ok := kit.Known(config, "content_base64"); ok {
		if _, err := base64.StdEncoding.DecodeString(v.AsString()); err != nil {
			diags = diags.Errorf(cty.GetAttrPath("content_base64"), "Invalid base64 content",
				"content_base64 is not valid standard base64: "+err.Error()+".")
		}
	}
	for _, name := range []string{"file_permission", "directory_permission"} {
		if v, ok := kit.Known(config, name); ok {
			if _, err := parsePermission(v.AsString()); err != nil {
				diags = diags.Errorf(cty.GetAttrPath(name), "Invalid permission",
					fmt.Sprintf("%s %q %s; write an octal string such as \"0644\".", name, v.AsString(), err))
			}
		}
	}
	return diags
}

func parsePermission(s string) (fs.FileMode, error) {
	if len(s) < 3 || len(s) > 4 {
		return 0, errors.New("must have 3 or 4 octal digits")
	}
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil || n > 0o777 {
		return 0, errors.New("is not an octal permission of at most 0777")
	}
	return fs.FileMode(n), nil
}

// content returns the bytes a planned or prior object describes.
func (p *Provider) content(obj cty.Value) ([]byte, error) {
	if s := kit.String(obj, "content"); !obj.GetAttr("content").IsNull() {
		return []byte(s), nil
	}
	if obj.Type().HasAttribute("sensitive_content") && !obj.GetAttr("sensitive_content").IsNull() {
		return []byte(obj.GetAttr("sensitive_content").AsString()), nil
	}
	if v := obj.GetAttr("content_base64"); !v.IsNull() {
		return base64.StdEncoding.DecodeString(v.AsString())
	}
	if v := obj.GetAttr("source"); !v.IsNull() {
		return os.ReadFile(p.resolve(v.AsString()))
	}
	return nil, nil
}

func hashes(data []byte) map[string]cty.Value {
	sha1Sum := sha1.Sum(data)
	md5Sum := md5.Sum(data)
	sha256Sum := sha256.Sum256(data)
	sha512Sum := sha512.Sum512(data)
	return map[string]cty.Value{
		"id":                   cty.StringVal(hex.EncodeToString(sha1Sum[:])),
		"content_md5":          cty.StringVal(hex.EncodeToString(md5Sum[:])),
		"content_sha1":         cty.StringVal(hex.EncodeToString(sha1Sum[:])),
		"content_sha256":       cty.StringVal(hex.EncodeToString(sha256Sum[:])),
		"content_base64sha256": cty.StringVal(base64.StdEncoding.EncodeToString(sha256Sum[:])),
		"content_sha512":       cty.StringVal(hex.EncodeToString(sha512Sum[:])),
		"content_base64sha512": cty.StringVal(base64.StdEncoding.EncodeToString(sha512Sum[:])),
	}
}

func (p *Provider) applyFile(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	var diags providers.Diagnostics
	planned := req.PlannedState
	if planned.IsNull() {
		path := p.resolve(req.PriorState.GetAttr("filename").AsString())
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags.Errorf(nil,
				"Cannot delete file", fmt.Sprintf("Removing %s failed: %s.", path, err))}
		}
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	data, err := p.content(planned)
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("source"),
			"Cannot read file content", err.Error()+".")}
	}
	filePerm, err := parsePermission(planned.GetAttr("file_permission").AsString())
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("file_permission"), "Invalid permission", err.Error())}
	}
	dirPerm, err := parsePermission(planned.GetAttr("directory_permission").AsString())
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("directory_permission"), "Invalid permission", err.Error())}
	}
	path := p.resolve(planned.GetAttr("filename").AsString())
	if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("filename"),
			"Cannot create directory", fmt.Sprintf("Creating the directory of %s failed: %s.", path, err))}
	}
	// As in hashicorp/local, the permissions are those asked of the
	// operating system: the process umask still clears bits, so the
	// default "0777" gives 0755 under the usual umask 022.
	if err := os.WriteFile(path, data, filePerm); err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(cty.GetAttrPath("filename"),
			"Cannot write file", fmt.Sprintf("Writing %s failed: %s.", path, err))}
	}
	vals := planned.AsValueMap()
	for k, v := range hashes(data) {
		vals[k] = v
	}
	return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(vals)}
}

// readFile reports the file as gone when it is missing or its content no
// longer matches what was written, so the next plan recreates it.
func (p *Provider) readFile(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	prior := req.PriorState
	gone := providers.ReadResourceResponse{NewState: cty.NullVal(prior.Type())}
	data, err := os.ReadFile(p.resolve(prior.GetAttr("filename").AsString()))
	if errors.Is(err, fs.ErrNotExist) {
		return gone
	}
	if err != nil {
		var diags providers.Diagnostics
		return providers.ReadResourceResponse{NewState: prior, Diagnostics: diags.Errorf(cty.GetAttrPath("filename"),
			"Cannot read file", err.Error()+".")}
	}
	sum := sha1.Sum(data)
	if id := prior.GetAttr("id"); id.IsNull() || id.AsString() != hex.EncodeToString(sum[:]) {
		return gone
	}
	return providers.ReadResourceResponse{NewState: prior, Private: req.Private}
}

// fileDataSchema is the schema of the local_file data source, or with
// sensitive of local_sensitive_file, whose content is hidden.
func fileDataSchema(sensitive bool) *providers.Block {
	desc := "Reads a file on the machine running tenet."
	if sensitive {
		desc = "Reads a file on the machine running tenet whose content is sensitive and never shown."
	}
	b := &providers.Block{
		Description: desc,
		Attributes: map[string]*providers.Attribute{
			"filename":       {Type: cty.String, Required: true, Description: "The path of the file; relative paths start at the working directory."},
			"content":        {Type: cty.String, Computed: true, Sensitive: sensitive, Description: "The file's content as text."},
			"content_base64": {Type: cty.String, Computed: true, Sensitive: sensitive, Description: "The file's content as base64."},
			"id":             {Type: cty.String, Computed: true, Description: "SHA-1 of the content, hexadecimal."},
		},
	}
	for name, d := range hashAttributes {
		b.Attributes[name] = &providers.Attribute{Type: cty.String, Computed: true, Description: d}
	}
	return b
}

func validateDataFile(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	if v, ok := kit.Known(config, "filename"); ok && v.AsString() == "" {
		diags = diags.Errorf(cty.GetAttrPath("filename"), "Empty filename", "Give the path of the file to read.")
	}
	return diags
}

func (p *Provider) readDataFile(_ context.Context, config cty.Value) (cty.Value, providers.Diagnostics) {
	var diags providers.Diagnostics
	path := p.resolve(config.GetAttr("filename").AsString())
	data, err := os.ReadFile(path)
	if err != nil {
		return cty.NilVal, diags.Errorf(cty.GetAttrPath("filename"), "Cannot read file",
			fmt.Sprintf("Reading %s failed: %s. Check the filename.", path, err))
	}
	vals := hashes(data)
	vals["filename"] = config.GetAttr("filename")
	vals["content"] = cty.StringVal(string(data))
	vals["content_base64"] = cty.StringVal(base64.StdEncoding.EncodeToString(data))
	return cty.ObjectVal(vals), nil
}
