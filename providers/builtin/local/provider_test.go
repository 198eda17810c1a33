package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kittest"
)

func TestLocalFileLifecycle(t *testing.T) {
	// The modes asserted below assume the usual umask.
	defer syscall.Umask(syscall.Umask(0o022))
	dir := t.TempDir()
	h := kittest.New(t, New(), dir)
	config := h.Config("local_file", "filename = \"sub/dir/hello.txt\"\ncontent = \"hello\"\nfile_permission = \"0640\"")

	plan := h.Plan("local_file", cty.NilVal, config)
	if plan.PlannedState.GetAttr("id").IsKnown() || !plan.PlannedState.GetAttr("directory_permission").RawEquals(cty.StringVal("0777")) {
		t.Errorf("plan should have unknown id and default directory_permission: %#v", plan.PlannedState)
	}
	created := h.Apply("local_file", cty.NilVal, plan.PlannedState, config)
	path := filepath.Join(dir, "sub", "dir", "hello.txt")
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "hello" {
		t.Fatalf("file content %q, %v", got, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("file mode %v, want 0640", info.Mode().Perm())
	}
	wantHashes := map[string]string{
		"id":             "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d",
		"content_sha1":   "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d",
		"content_md5":    "5d41402abc4b2a76b9719d911017c592",
		"content_sha256": "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
	}
	for name, want := range wantHashes {
		if got := created.GetAttr(name).AsString(); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}

	if refreshed := h.Read("local_file", created); !refreshed.RawEquals(created) {
		t.Errorf("unchanged file should refresh to the same object")
	}
	h.AssertNoOp("local_file", created, config)

	replace := h.Plan("local_file", created, h.Config("local_file", "filename = \"sub/dir/hello.txt\"\ncontent = \"bye\"\nfile_permission = \"0640\""))
	if diff := cmp.Diff([]string{"content"}, kittest.ReplacePaths(replace.RequiresReplace)); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}

	if err := os.WriteFile(path, []byte("edited by hand"), 0o640); err != nil {
		t.Fatal(err)
	}
	if refreshed := h.Read("local_file", created); !refreshed.IsNull() {
		t.Errorf("drifted content should read as gone, got %#v", refreshed)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if refreshed := h.Read("local_file", created); !refreshed.IsNull() {
		t.Errorf("missing file should read as gone")
	}

	recreated := h.Create("local_file", config)
	h.Destroy("local_file", recreated)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("file should be deleted, stat: %v", err)
	}
}

func TestLocalSensitiveFileAndBase64(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	dir := t.TempDir()
	h := kittest.New(t, New(), dir)
	config := h.Config("local_sensitive_file", "filename = \"bin\"\ncontent_base64 = \"AAEC\"")
	created := h.Create("local_sensitive_file", config)
	got, err := os.ReadFile(filepath.Join(dir, "bin"))
	if err != nil || string(got) != "\x00\x01\x02" {
		t.Fatalf("file content %q, %v", got, err)
	}
	if info, _ := os.Stat(filepath.Join(dir, "bin")); info.Mode().Perm() != 0o700 {
		t.Errorf("sensitive file mode %v, want 0700", info.Mode().Perm())
	}
	h.AssertNoOp("local_sensitive_file", created, config)
	schema := h.Schema.ResourceTypes["local_sensitive_file"].Block
	if !schema.Attributes["content"].Sensitive {
		t.Errorf("content of local_sensitive_file must be sensitive")
	}
}

func TestLocalFileValidate(t *testing.T) {
	h := kittest.New(t, New(), t.TempDir())
	tests := []struct {
		name, config, wantSummary, wantPath string
	}{
		{"no content", `filename = "a"`, "Missing file content", ""},
		{"two contents", "filename = \"a\"\ncontent = \"x\"\ncontent_base64 = \"eA==\"", "Conflicting file content", "content_base64"},
		{"bad permission", "filename = \"a\"\ncontent = \"x\"\nfile_permission = \"999\"", "Invalid permission", "file_permission"},
		{"bad base64", "filename = \"a\"\ncontent_base64 = \"!!\"", "Invalid base64 content", "content_base64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kittest.WantOne(t, h.Validate("local_file", h.Config("local_file", tt.config)), tt.wantSummary, tt.wantPath)
		})
	}
	m := h.Config("local_file", `filename = "a"`).AsValueMap()
	m["content"] = cty.UnknownVal(cty.String)
	if diags := h.Validate("local_file", cty.ObjectVal(m)); len(diags) > 0 {
		t.Errorf("unknown content should be tolerated: %v", diags)
	}
}

func TestLocalFileDataSource(t *testing.T) {
	for _, typ := range []string{"local_file", "local_sensitive_file"} {
		t.Run(typ, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("hello"), 0o644); err != nil {
				t.Fatal(err)
			}
			h := kittest.New(t, New(), dir)
			got, diags := h.ReadData(typ, h.DataConfig(typ, `filename = "in.txt"`))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got.GetAttr("content").AsString() != "hello" || got.GetAttr("content_base64").AsString() != "aGVsbG8=" ||
				got.GetAttr("id").AsString() != "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d" {
				t.Errorf("unexpected data %#v", got)
			}
			schema := h.Schema.DataSources[typ].Block
			wantSensitive := typ == "local_sensitive_file"
			for _, name := range []string{"content", "content_base64"} {
				if schema.Attributes[name].Sensitive != wantSensitive {
					t.Errorf("%s sensitive = %v, want %v", name, !wantSensitive, wantSensitive)
				}
			}
			_, diags = h.ReadData(typ, h.DataConfig(typ, `filename = "missing.txt"`))
			if len(diags) != 1 || diags[0].Summary != "Cannot read file" {
				t.Errorf("missing file: %v", diags)
			}
		})
	}
}

// hashicorp/local asks for the configured permissions and leaves the
// process umask to clear bits; the default "0777" is not world-writable.
func TestLocalFileHonoursUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	tests := []struct {
		name, config      string
		wantFile, wantDir os.FileMode
	}{
		{"defaults", `content = "x"`, 0o755, 0o755},
		{"explicit", "content = \"x\"\nfile_permission = \"0666\"\ndirectory_permission = \"0777\"", 0o644, 0o755},
		{"narrow", "content = \"x\"\nfile_permission = \"0600\"\ndirectory_permission = \"0700\"", 0o600, 0o700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			h := kittest.New(t, New(), dir)
			h.Create("local_file", h.Config("local_file", "filename = \"d/f\"\n"+tt.config))
			var got [2]os.FileMode
			for i, p := range []string{"d/f", "d"} {
				info, err := os.Stat(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				got[i] = info.Mode().Perm()
			}
			if diff := cmp.Diff([2]os.FileMode{tt.wantFile, tt.wantDir}, got); diff != "" {
				t.Errorf("file, dir modes (-want +got):\n%s", diff)
			}
		})
	}
}

// hashicorp/local v2.5.3's file resources do not implement import: its
// plugin framework answers every import with the diagnostic below, and the
// built-in refuses with the same words.
func TestLocalFileImportRefusedAsHashicorpLocal(t *testing.T) {
	for _, typ := range []string{"local_file", "local_sensitive_file"} {
		t.Run(typ, func(t *testing.T) {
			resp := New().ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: typ, ID: "x.txt"})
			if len(resp.ImportedResources) != 0 {
				t.Errorf("imported %d objects, want none", len(resp.ImportedResources))
			}
			type diag struct{ Severity, Summary, Detail string }
			var got []diag
			for _, d := range resp.Diagnostics {
				got = append(got, diag{fmt.Sprint(d.Severity), d.Summary, d.Detail})
			}
			want := []diag{{fmt.Sprint(hcl.DiagError), "Resource Import Not Implemented",
				"This resource does not support import. Please contact the provider developer for additional information."}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
