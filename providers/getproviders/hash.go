package getproviders

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// Hash is one entry of a lock file's hashes list: a scheme prefix and a
// digest, such as "h1:…" or "zh:…".
type Hash string

// The hash schemes of the lock file. h1 hashes the unpacked package (the
// same Go module "dirhash" scheme go.sum uses), so it can be checked
// against both a directory and a zip; zh is the SHA-256 of the zip archive
// that registries publish in their SHA256SUMS, so it can be checked only
// against the archive.
const (
	SchemeH1 = "h1:"
	SchemeZH = "zh:"
)

// ParseHash checks that s is a hash the lock file may hold: a known scheme
// followed by a well-formed digest.
func ParseHash(s string) (Hash, error) {
	switch {
	case strings.HasPrefix(s, SchemeH1):
		rest := s[len(SchemeH1):]
		if len(rest) != 44 || !strings.HasSuffix(rest, "=") {
			return "", fmt.Errorf("invalid h1 hash %q: want 44 characters of base64", s)
		}
	case strings.HasPrefix(s, SchemeZH):
		rest := s[len(SchemeZH):]
		if b, err := hex.DecodeString(rest); err != nil || len(b) != sha256.Size || strings.ToLower(rest) != rest {
			return "", fmt.Errorf("invalid zh hash %q: want 64 lowercase hexadecimal digits", s)
		}
	default:
		return "", fmt.Errorf("invalid hash %q: want an h1: or zh: prefix", s)
	}
	return Hash(s), nil
}

// Scheme is the hash's prefix, "h1:" or "zh:".
func (h Hash) Scheme() string {
	if i := strings.IndexByte(string(h), ':'); i >= 0 {
		return string(h[:i+1])
	}
	return ""
}

// HashDir computes the h1 hash of an unpacked package directory.
func HashDir(dir string) (Hash, error) {
	// Installed packages are often symlinks into the plugin cache; hash
	// what they point at, not the link.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	s, err := dirhash.HashDir(dir, "", dirhash.Hash1)
	return Hash(s), err
}

// HashZipH1 computes the h1 hash of the directory a zip archive unpacks to.
func HashZipH1(zipPath string) (Hash, error) {
	s, err := dirhash.HashZip(zipPath, dirhash.Hash1)
	return Hash(s), err
}

// HashZipZH computes the zh hash (SHA-256) of a zip archive.
func HashZipZH(zipPath string) (Hash, error) {
	f, err := os.Open(zipPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return Hash(SchemeZH + hex.EncodeToString(h.Sum(nil))), nil
}

// ZHFromSHA256 turns a raw SHA-256 digest, as SHA256SUMS lists it, into a
// zh hash.
func ZHFromSHA256(sum [sha256.Size]byte) Hash {
	return Hash(SchemeZH + hex.EncodeToString(sum[:]))
}

// PackageHashes computes the hashes of a package that can be compared with
// a lock file's: h1 always, zh too when the package is a zip archive.
func PackageHashes(loc PackageLocation) ([]Hash, error) {
	switch loc := loc.(type) {
	case PackageLocalDir:
		h, err := HashDir(string(loc))
		if err != nil {
			return nil, err
		}
		return []Hash{h}, nil
	case PackageLocalArchive:
		h1, err := HashZipH1(string(loc))
		if err != nil {
			return nil, err
		}
		zh, err := HashZipZH(string(loc))
		if err != nil {
			return nil, err
		}
		return []Hash{h1, zh}, nil
	}
	return nil, fmt.Errorf("cannot hash a package at %s before it is downloaded", loc)
}

// MatchesAny reports whether any of got is among want.
func MatchesAny(got, want []Hash) bool {
	for _, g := range got {
		for _, w := range want {
			if g == w {
				return true
			}
		}
	}
	return false
}
