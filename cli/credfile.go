package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tenetplan/tenet/internal/atomicfile"
	"github.com/tenetplan/tenet/internal/registryhttp"
	"github.com/tenetplan/tenet/providers/cliconfig"
)

// credentialsFileName is the file login writes and logout edits, in the
// same place and format as OpenTofu's: ~/.terraform.d/credentials.tfrc.json,
// {"credentials": {"HOST": {"token": "…"}}}. It is also an ordinary
// *.tfrc.json of the CLI configuration directory, which is how commands
// read the tokens it holds (providers/cliconfig).
const credentialsFileName = "credentials.tfrc.json"

// credentialsPath is where the file lives. OpenTofu 1.10 keeps it in
// ~/.terraform.d whether or not that directory exists (it does not follow
// XDG_CONFIG_HOME for it), and so does tenet.
func credentialsPath(env []string) string {
	return filepath.Join(envValue(env, "HOME"), ".terraform.d", credentialsFileName)
}

// credentialsFile is credentials.tfrc.json as read: its other top-level
// settings are kept as they are, so that editing the credentials loses
// nothing.
type credentialsFile struct {
	path  string
	other map[string]json.RawMessage
	creds map[string]json.RawMessage // hostname as written → its object
}

func readCredentialsFile(path string) (*credentialsFile, error) {
	f := &credentialsFile{path: path, other: map[string]json.RawMessage{}, creds: map[string]json.RawMessage{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &f.other); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object: %w", path, err)
	}
	if raw, ok := f.other["credentials"]; ok {
		if err := json.Unmarshal(raw, &f.creds); err != nil || f.creds == nil {
			return nil, fmt.Errorf("the credentials property of %s is not a JSON object", path)
		}
		delete(f.other, "credentials")
	}
	return f, nil
}

// key finds how host is written in the file, however it was spelled.
func (f *credentialsFile) key(host string) (string, bool) {
	want := registryhttp.NormalizeHost(host)
	for k := range f.creds {
		if registryhttp.NormalizeHost(k) == want {
			return k, true
		}
	}
	return "", false
}

func (f *credentialsFile) set(host, token string) {
	if k, ok := f.key(host); ok {
		delete(f.creds, k)
	}
	f.creds[host], _ = json.Marshal(map[string]string{"token": token})
}

func (f *credentialsFile) remove(host string) bool {
	k, ok := f.key(host)
	if ok {
		delete(f.creds, k)
	}
	return ok
}

// write replaces the file atomically, readable by its owner only: it
// holds secrets in plain text.
func (f *credentialsFile) write() error {
	doc := make(map[string]any, len(f.other)+1)
	for k, v := range f.other {
		doc[k] = v
	}
	creds := make(map[string]json.RawMessage, len(f.creds))
	for k, v := range f.creds {
		creds[k] = v
	}
	// An empty credentials object is left out: HCL's JSON reading of the
	// CLI configuration takes {"credentials": {}} for a block without
	// its hostname label.
	if len(creds) > 0 {
		doc["credentials"] = creds
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(f.path, 0o600, append(b, '\n'))
}

// credentialsGuard refuses login and logout where the token for host is
// not theirs to change: a credentials block in another CLI configuration
// file (which they must not edit), or a credentials_helper block (tenet
// does not run credentials helpers, so it cannot store through one).
func credentialsGuard(g *globals, command, host, credPath string) hcl.Diagnostics {
	cfg, diags := g.cliConfig()
	if diags.HasErrors() {
		return diags
	}
	want := registryhttp.NormalizeHost(host)
	files := append([]string(nil), cfg.Files...)
	sort.Strings(files)
	for _, file := range files {
		if same, _ := sameFile(file, credPath); same {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			continue // Load has warned about it
		}
		if rng, ok := credentialsHelperBlock(file, src); ok {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Credentials helpers are not supported",
				Detail: fmt.Sprintf("The CLI configuration names a credentials_helper, where OpenTofu would store and remove tokens. tenet does not run credentials helpers, so %s cannot change the stored token. Use the helper's own tool, or remove the credentials_helper block to keep tokens in %s.",
					command, credPath),
				Subject: rng.Ptr(),
			}}
		}
		one, _ := cliconfig.Parse(file, src)
		for h := range one.Credentials {
			if registryhttp.NormalizeHost(h) == want {
				return hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Credentials for %s are manually configured", host),
					Detail: fmt.Sprintf("A credentials block in the CLI configuration file %s holds the token for this host, so %s cannot change it. Revoke that token and remove the block from the file yourself.",
						file, command),
				}}
			}
		}
	}
	return nil
}

// credentialsHelperBlock finds a credentials_helper block in one CLI
// configuration file.
func credentialsHelperBlock(file string, src []byte) (hcl.Range, bool) {
	p := hclparse.NewParser()
	var f *hcl.File
	if filepath.Ext(file) == ".json" {
		f, _ = p.ParseJSON(src, file)
	} else {
		f, _ = p.ParseHCL(src, file)
	}
	if f == nil {
		return hcl.Range{}, false
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "credentials_helper", LabelNames: []string{"type"}}}})
	if content == nil || len(content.Blocks) == 0 {
		return hcl.Range{}, false
	}
	return content.Blocks[0].DefRange, true
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
