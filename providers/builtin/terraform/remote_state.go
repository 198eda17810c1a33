package terraform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/providers"
)

var remoteStateSchema = &providers.Block{
	Description: "Reads the root module outputs of another configuration's state.",
	Attributes: map[string]*providers.Attribute{
		"backend": {
			Type:        cty.String,
			Required:    true,
			Description: `The backend holding the state: "local", or pg, s3 or http when the CLI supplies a reader.`,
		},
		"config": {
			Type:        cty.DynamicPseudoType,
			Optional:    true,
			Description: `The backend's settings; for "local": path (default "terraform.tfstate") and workspace_dir.`,
		},
		"defaults": {
			Type:        cty.DynamicPseudoType,
			Optional:    true,
			Description: "Values used for outputs the state does not have.",
		},
		"outputs": {
			Type:        cty.DynamicPseudoType,
			Computed:    true,
			Description: "The root module outputs of the state, as an object.",
		},
		"workspace": {
			Type:        cty.String,
			Optional:    true,
			Description: `The workspace whose state to read; "default" when unset.`,
		},
	},
}

// localBackendSettings are the config arguments of the local backend.
var localBackendSettings = map[string]bool{"path": true, "workspace_dir": true}

// openTofuBackends are the backend types OpenTofu has; tenet reads local
// itself and pg, s3 and http through the CLI's reader, and refuses the
// others when reading.
var openTofuBackends = map[string]bool{"local": true, "remote": true, "azurerm": true, "consul": true, "cos": true,
	"gcs": true, "http": true, "inmem": true, "kubernetes": true, "oss": true, "pg": true, "s3": true}

// removedBackends are types OpenTofu no longer has, with what it says.
var removedBackends = map[string]string{
	"artifactory": `The "artifactory" backend is not supported in OpenTofu v1.3 or later.`,
	"azure":       `The "azure" backend name has been removed, please use "azurerm".`,
	"etcd":        `The "etcd" backend is not supported in OpenTofu v1.3 or later.`,
	"etcdv3":      `The "etcdv3" backend is not supported in OpenTofu v1.3 or later.`,
	"manta":       `The "manta" backend is not supported in OpenTofu v1.3 or later.`,
	"swift":       `The "swift" backend is not supported in OpenTofu v1.3 or later.`,
}

// validateRemoteState checks what can be checked without reading, in
// OpenTofu's words: the backend type, and for the local backend its
// settings. The other backends' settings are checked when they are read.
func (p *Provider) validateRemoteState(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	backend := config.GetAttr("backend")
	if !backend.IsKnown() || backend.IsNull() {
		return nil
	}
	typ := backend.AsString()
	switch {
	case removedBackends[typ] != "":
		return diags.Errorf(cty.GetAttrPath("backend"), "Invalid backend configuration", removedBackends[typ])
	case !openTofuBackends[typ]:
		return diags.Errorf(cty.GetAttrPath("backend"), "Invalid backend configuration", fmt.Sprintf("There is no backend type named %q.", typ))
	case typ != "local" && p.reader != nil:
		return nil // the reader's backend checks its own settings
	case typ != "local":
		return diags.Errorf(cty.GetAttrPath("backend"), "Unsupported backend type",
			fmt.Sprintf("tenet's terraform_remote_state reads only the \"local\" backend, not %q. Read the state through a local copy of the file instead.", typ))
	}
	settings := config.GetAttr("config")
	if !settings.IsKnown() || settings.IsNull() {
		return diags
	}
	ty := settings.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return diags.Errorf(cty.GetAttrPath("config"), "Invalid backend configuration",
			"The config argument must be an object of backend settings, such as { path = \"other.tfstate\" }.")
	}
	var unexpected []string
	for it := settings.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !localBackendSettings[name] {
			unexpected = append(unexpected, name)
			continue
		}
		if v.IsKnown() && !v.IsNull() && v.Type() != cty.String {
			diags = diags.Errorf(cty.GetAttrPath("config").GetAttr(name), "Invalid backend setting",
				fmt.Sprintf("The %s setting must be a string.", name))
		}
	}
	if len(unexpected) > 0 {
		// As OpenTofu, the first in name order, at the config argument.
		sort.Strings(unexpected)
		diags = diags.Errorf(cty.GetAttrPath("config"), "Invalid backend configuration",
			fmt.Sprintf("The given configuration is not valid for backend %q: unexpected attribute %q.", typ, unexpected[0]))
	}
	return diags
}

func (p *Provider) readRemoteState(ctx context.Context, config cty.Value) (cty.Value, providers.Diagnostics) {
	diags := p.validateRemoteState(config)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	path := p.localStatePath(config)
	var outputs map[string]cty.Value
	var err error
	if b := config.GetAttr("backend"); b.AsString() != "local" && p.reader != nil {
		settings := map[string]cty.Value{}
		if c := config.GetAttr("config"); !c.IsNull() {
			for it := c.ElementIterator(); it.Next(); {
				k, v := it.Element()
				settings[k.AsString()] = v
			}
		}
		ws := "default"
		if w := config.GetAttr("workspace"); !w.IsNull() {
			ws = w.AsString()
		}
		path = fmt.Sprintf("the %s backend's workspace %q", b.AsString(), ws)
		var src []byte
		if src, err = p.reader(ctx, b.AsString(), settings, ws); err == nil {
			if src == nil {
				err = fs.ErrNotExist
			} else {
				outputs, err = parseStateOutputs(src)
			}
		}
	} else {
		outputs, err = readStateOutputs(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// OpenTofu's words, at the block rather than at config.
		return cty.NilVal, diags.Errorf(nil, "Unable to find remote state",
			"No stored state was found for the given workspace in the given backend.")
	}
	if err != nil {
		return cty.NilVal, diags.Errorf(cty.GetAttrPath("config"), "Unable to read remote state",
			fmt.Sprintf("Reading the state file %s failed: %s.", path, err))
	}

	merged := map[string]cty.Value{}
	if defaults := config.GetAttr("defaults"); !defaults.IsNull() {
		ty := defaults.Type()
		if !ty.IsObjectType() && !ty.IsMapType() {
			return cty.NilVal, diags.Errorf(cty.GetAttrPath("defaults"), "Invalid defaults",
				"The defaults argument must be an object whose attributes stand in for missing outputs.")
		}
		for it := defaults.ElementIterator(); it.Next(); {
			k, v := it.Element()
			merged[k.AsString()] = v
		}
	}
	for name, v := range outputs {
		merged[name] = v
	}

	vals := config.AsValueMap()
	vals["outputs"] = cty.ObjectVal(merged)
	return cty.ObjectVal(vals), diags
}

// localStatePath is where the local backend keeps the chosen workspace's
// state, resolved against the working directory.
func (p *Provider) localStatePath(config cty.Value) string {
	path, workspaceDir := "terraform.tfstate", "terraform.tfstate.d"
	if settings := config.GetAttr("config"); !settings.IsNull() {
		if v := settingString(settings, "path"); v != "" {
			path = v
		}
		if v := settingString(settings, "workspace_dir"); v != "" {
			workspaceDir = v
		}
	}
	if ws := config.GetAttr("workspace"); !ws.IsNull() && ws.AsString() != "default" {
		path = filepath.Join(workspaceDir, ws.AsString(), "terraform.tfstate")
	}
	if !filepath.IsAbs(path) && p.workingDir != "" {
		path = filepath.Join(p.workingDir, path)
	}
	return path
}

func settingString(settings cty.Value, name string) string {
	ty := settings.Type()
	if ty.IsObjectType() && !ty.HasAttribute(name) {
		return ""
	}
	if ty.IsMapType() && !settings.HasIndex(cty.StringVal(name)).True() {
		return ""
	}
	v := elementNamed(settings, name)
	if v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// stateFileOutputs is the part of a version-4 state file this provider
// reads.
type stateFileOutputs struct {
	Version int `json:"version"`
	Outputs map[string]struct {
		Value json.RawMessage `json:"value"`
		Type  json.RawMessage `json:"type"`
	} `json:"outputs"`
}

func readStateOutputs(path string) (map[string]cty.Value, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseStateOutputs(src)
}

// parseStateOutputs decodes the outputs of a version-4 state file.
func parseStateOutputs(src []byte) (map[string]cty.Value, error) {
	var err error
	var sf stateFileOutputs
	if err := json.Unmarshal(src, &sf); err != nil {
		return nil, fmt.Errorf("not a valid state file: %w", err)
	}
	if sf.Version != 4 {
		return nil, fmt.Errorf("state format version %d is not supported, only version 4", sf.Version)
	}
	outputs := make(map[string]cty.Value, len(sf.Outputs))
	for name, o := range sf.Outputs {
		ty := cty.DynamicPseudoType
		if len(o.Type) > 0 {
			if ty, err = ctyjson.UnmarshalType(o.Type); err != nil {
				return nil, fmt.Errorf("output %q has an invalid type: %w", name, err)
			}
		}
		if ty == cty.DynamicPseudoType {
			// Hand-written state without a type: infer one from the JSON.
			ty, err = ctyjson.ImpliedType(o.Value)
		}
		var v cty.Value
		if err == nil {
			v, err = ctyjson.Unmarshal(o.Value, ty)
		}
		if err != nil {
			return nil, fmt.Errorf("output %q has an invalid value: %w", name, err)
		}
		outputs[name] = v
	}
	return outputs, nil
}

func elementNamed(coll cty.Value, name string) cty.Value {
	if coll.Type().IsObjectType() {
		return coll.GetAttr(name)
	}
	return coll.Index(cty.StringVal(name))
}
