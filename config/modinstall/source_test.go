package modinstall

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSource(t *testing.T) {
	tests := []struct {
		raw    string
		want   Source
		str    string
		errHas string
	}{
		{raw: "./net", want: Source{Kind: SourceLocal, Path: "./net"}, str: "./net"},
		{raw: "../x/y", want: Source{Kind: SourceLocal, Path: "../x/y"}, str: "../x/y"},
		{raw: "hashicorp/consul/aws", want: Source{Kind: SourceRegistry, Host: DefaultRegistryHost, Namespace: "hashicorp", Name: "consul", System: "aws"}, str: "registry.opentofu.org/hashicorp/consul/aws"},
		{raw: "example.com:8443/ns/vpc/aws//modules/a", want: Source{Kind: SourceRegistry, Host: "example.com:8443", Namespace: "ns", Name: "vpc", System: "aws", Subdir: "modules/a"}, str: "example.com:8443/ns/vpc/aws//modules/a"},
		{raw: "git::https://example.com/vpc.git?ref=v1.2.0", want: Source{Kind: SourceGit, URL: "https://example.com/vpc.git", Ref: "v1.2.0", Query: "ref=v1.2.0"}, str: "git::https://example.com/vpc.git?ref=v1.2.0"},
		// The arguments keep the order they were written in, as OpenTofu records them.
		{raw: "git::https://example.com/vpc.git//sub/dir?ref=main&depth=1", want: Source{Kind: SourceGit, URL: "https://example.com/vpc.git", Ref: "main", Depth: 1, Subdir: "sub/dir", Query: "ref=main&depth=1"}, str: "git::https://example.com/vpc.git//sub/dir?ref=main&depth=1"},
		{raw: "git::ssh://git@example.com/vpc.git?sshkey=QUJD&ref=v1", want: Source{Kind: SourceGit, URL: "ssh://git@example.com/vpc.git", Ref: "v1", SSHKey: "QUJD", Query: "sshkey=QUJD&ref=v1"}, str: "git::ssh://git@example.com/vpc.git?sshkey=QUJD&ref=v1"},
		{raw: "git::ssh://git@example.com/org/vpc.git", want: Source{Kind: SourceGit, URL: "ssh://git@example.com/org/vpc.git"}, str: "git::ssh://git@example.com/org/vpc.git"},
		{raw: "git::file:///srv/repo.git//m", want: Source{Kind: SourceGit, URL: "file:///srv/repo.git", Subdir: "m"}, str: "git::file:///srv/repo.git//m"},
		// scp-like addresses are ssh URLs, as OpenTofu records them.
		{raw: "git@github.com:org/repo.git?ref=abc123", want: Source{Kind: SourceGit, URL: "ssh://git@github.com/org/repo.git", Ref: "abc123", Query: "ref=abc123"}, str: "git::ssh://git@github.com/org/repo.git?ref=abc123"},
		{raw: "github.com/org/repo", want: Source{Kind: SourceGit, URL: "https://github.com/org/repo.git"}, str: "git::https://github.com/org/repo.git"},
		{raw: "github.com/org/repo/modules/x?ref=v2", want: Source{Kind: SourceGit, URL: "https://github.com/org/repo.git", Ref: "v2", Subdir: "modules/x", Query: "ref=v2"}, str: "git::https://github.com/org/repo.git//modules/x?ref=v2"},
		// Bitbucket hosts only git repositories, so the answer OpenTofu asks
		// its API for is always git over https.
		{raw: "bitbucket.org/org/repo//m", want: Source{Kind: SourceGit, URL: "https://bitbucket.org/org/repo.git", Subdir: "m"}, str: "git::https://bitbucket.org/org/repo.git//m"},
		{raw: "bitbucket.org/org/repo?ref=v1.0.0", want: Source{Kind: SourceGit, URL: "https://bitbucket.org/org/repo.git", Ref: "v1.0.0", Query: "ref=v1.0.0"}, str: "git::https://bitbucket.org/org/repo.git?ref=v1.0.0"},
		{raw: "bitbucket.org/org/repo.git//a/b?ref=main&depth=1", want: Source{Kind: SourceGit, URL: "https://bitbucket.org/org/repo.git", Ref: "main", Depth: 1, Subdir: "a/b", Query: "ref=main&depth=1"}, str: "git::https://bitbucket.org/org/repo.git//a/b?ref=main&depth=1"},
		{raw: "bitbucket.org/org/repo/sub", errHas: "//sub"},
		{raw: "bitbucket.org/org", errHas: "owner and a repository"},
		{raw: "https://example.com/vpc.zip", want: Source{Kind: SourceHTTP, URL: "https://example.com/vpc.zip", Archive: "zip"}, str: "https://example.com/vpc.zip"},
		{raw: "https://example.com/vpc.tgz//a", want: Source{Kind: SourceHTTP, URL: "https://example.com/vpc.tgz", Archive: "tar.gz", Subdir: "a"}, str: "https://example.com/vpc.tgz//a"},
		{raw: "https://example.com/vpc.tar.bz2", want: Source{Kind: SourceHTTP, URL: "https://example.com/vpc.tar.bz2", Archive: "tar.bz2"}, str: "https://example.com/vpc.tar.bz2"},
		{raw: "https://example.com/get?archive=zip", want: Source{Kind: SourceHTTP, URL: "https://example.com/get", Archive: "zip"}, str: "https://example.com/get?archive=zip"},
		{raw: "https://example.com/mod", want: Source{Kind: SourceHTTP, URL: "https://example.com/mod"}, str: "https://example.com/mod"},
		{raw: "s3::https://s3.amazonaws.com/b/vpc.zip", errHas: "not supported by tenet"},
		{raw: "gcs::https://www.googleapis.com/storage/v1/b/vpc.zip", errHas: "not supported by tenet"},
		{raw: "hg::https://example.com/repo", errHas: "not supported by tenet"},
		{raw: "foo::bar", errHas: "unknown source type"},
		{raw: "just-a-name", errHas: "failed to determine your intended installation method"},
		{raw: "/abs/path", errHas: "absolute path"},
		{raw: "ns/name/AWS", errHas: "lowercase"},
		{raw: "git::https://example.com/r.git//../../etc", errHas: "outside the module package"},
		{raw: "git::https://example.com/r.git?depth=x", errHas: "whole number"},
		{raw: "git::https://example.com/r.git?branch=x", errHas: "unknown argument"},
		{raw: "git::ssh://git@example.com/r.git?sshkey=not*base64", errHas: "base64"},
		{raw: "git::ftp://example.com/r.git", errHas: "must use"},
		{raw: "https://example.com/x?archive=rar", errHas: "not supported"},
		{raw: "", errHas: "empty"},
		{raw: "ns/vpc/aws//../x", errHas: "outside the module package"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, err := ParseSource(tt.raw)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("error = %v, want one containing %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if got.String() != tt.str {
				t.Errorf("String() = %q, want %q", got.String(), tt.str)
			}
			// The normalised form parses back to the same source.
			again, err := ParseSource(got.String())
			if err != nil {
				t.Fatalf("reparse %q: %v", got.String(), err)
			}
			if diff := cmp.Diff(got, again); diff != "" && got.Kind != SourceGit {
				t.Errorf("reparse (-first +second)\n%s", diff)
			}
		})
	}
	var unsup ErrUnsupported
	if _, err := ParseSource("s3::x"); !errors.As(err, &unsup) || unsup.Getter != "s3" {
		t.Errorf("s3 error = %#v, want ErrUnsupported", err)
	}
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"./a", "ns/n/aws", "h.com/ns/n/aws//x", "git::https://h/r.git//s?ref=v", "git@h:o/r.git", "github.com/o/r/x?ref=1", "https://h/a.zip//s", "s3::x", "a::b::c", "git::https://h/r//..//x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := ParseSource(raw)
		if err != nil {
			return
		}
		if s.Subdir != "" && (strings.HasPrefix(s.Subdir, "/") || s.Subdir == ".." || strings.HasPrefix(s.Subdir, "../")) {
			t.Fatalf("%q: subdir %q escapes the package", raw, s.Subdir)
		}
		if s.Kind == SourceRegistry && (s.Namespace == "" || s.Name == "" || s.System == "") {
			t.Fatalf("%q: incomplete registry address %#v", raw, s)
		}
		if s.Kind != SourceLocal && s.Kind != SourceRegistry {
			if _, err := ParseSource(s.String()); err != nil {
				t.Fatalf("%q normalised to %q, which does not parse: %v", raw, s.String(), err)
			}
		}
	})
}
