package getproviders

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/registryhttp"
)

// ErrChecksumMismatch means a package's content is not what its source (or
// the lock file) said it would be.
type ErrChecksumMismatch struct {
	Provider addrs.Provider
	Version  Version
	What     string // what the package was compared with
	Got      []Hash
	Want     []Hash
}

func (e ErrChecksumMismatch) Error() string {
	return fmt.Sprintf("checksum mismatch for %s v%s: the package's hashes (%s) match none of %s (%s)",
		e.Provider.ForDisplay(), e.Version, joinHashes(e.Got), e.What, joinHashes(e.Want))
}

func joinHashes(hs []Hash) string {
	s := make([]string, len(hs))
	for i, h := range hs {
		s[i] = string(h)
	}
	return strings.Join(s, ", ")
}

// ErrSignature means the checksums document's signature did not verify
// against any of the registry's keys.
type ErrSignature struct {
	Provider addrs.Provider
	Version  Version
	Err      error
}

func (e ErrSignature) Error() string {
	return fmt.Sprintf("the signature of %s v%s's checksums does not verify against the registry's signing keys: %s", e.Provider.ForDisplay(), e.Version, e.Err)
}

func (e ErrSignature) Unwrap() error { return e.Err }

// registryAuth is the registry protocol's chain of trust: the zip's
// SHA-256 must be the download answer's shasum, which must be the line for
// the file in SHA256SUMS, whose detached signature must verify against one
// of the registry's OpenPGP keys.
type registryAuth struct {
	c               *client
	src             string
	provider        addrs.Provider
	version         Version
	filename        string
	sum             [sha256.Size]byte
	sumsURL, sigURL *url.URL
	keys            []string
	all             []Hash
}

func (a *registryAuth) AcceptableHashes() []Hash { return a.all }

func (a *registryAuth) Authenticate(loc PackageLocation) (*AuthResult, error) {
	archive, ok := loc.(PackageLocalArchive)
	if !ok {
		return nil, fmt.Errorf("registry packages are authenticated as downloaded zip archives, not %s", loc)
	}
	got, err := HashZipZH(string(archive))
	if err != nil {
		return nil, err
	}
	if want := ZHFromSHA256(a.sum); got != want {
		return nil, ErrChecksumMismatch{Provider: a.provider, Version: a.version, What: "the registry's shasum", Got: []Hash{got}, Want: []Hash{want}}
	}
	if a.sumsURL == nil {
		return nil, ErrSignature{Provider: a.provider, Version: a.version, Err: errors.New("the registry gave no shasums_url")}
	}
	ctx := context.Background()
	sums, err := a.fetch(ctx, a.sumsURL)
	if err != nil {
		return nil, err
	}
	entries, err := ParseSHA256SUMS(sums)
	if err != nil {
		return nil, ErrBadResponse{Source: a.src, What: "SHA256SUMS (" + err.Error() + ")"}
	}
	listed, ok := entries[a.filename]
	if !ok || listed != a.sum {
		return nil, ErrChecksumMismatch{Provider: a.provider, Version: a.version, What: "SHA256SUMS", Got: []Hash{got}, Want: []Hash{ZHFromSHA256(listed)}}
	}
	// The zh of every platform's archive goes into the lock file, so it
	// verifies on other platforms too; other files (manifests) do not.
	prefix := "terraform-provider-" + a.provider.Type + "_" + a.version.String() + "_"
	for name, sum := range entries {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".zip") {
			a.all = append(a.all, ZHFromSHA256(sum))
		}
	}
	if len(a.keys) == 0 {
		// OpenTofu's registry serves providers whose authors published no
		// key; OpenTofu installs those with a warning, and so do we.
		return &AuthResult{Warning: fmt.Sprintf("The registry published no signing key for %s v%s, so its checksums could not be checked against a signature. The package does match the registry's checksums.", a.provider.ForDisplay(), a.version)}, nil
	}
	if a.sigURL == nil {
		return nil, ErrSignature{Provider: a.provider, Version: a.version, Err: errors.New("the registry gave signing keys but no shasums_signature_url")}
	}
	sig, err := a.fetch(ctx, a.sigURL)
	if err != nil {
		return nil, err
	}
	keyID, err := checkSignature(a.keys, sums, sig)
	if err != nil {
		return nil, ErrSignature{Provider: a.provider, Version: a.version, Err: err}
	}
	return &AuthResult{Signed: "signed", KeyID: keyID}, nil
}

func (a *registryAuth) fetch(ctx context.Context, u *url.URL) ([]byte, error) {
	resp, err := a.c.get(ctx, u, a.src)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, ErrUnreachable{Source: a.src, Err: fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)}
	}
	b, err := registryhttp.ReadBounded(resp.Body, u.Host, "checksums document", maxJSON)
	if err != nil {
		return nil, wrapErr(err, a.src)
	}
	return b, nil
}

// checkSignature verifies a detached signature (binary or armored) of
// data against a set of ASCII-armored public keys and returns the signing
// key's ID in upper-case hexadecimal.
func checkSignature(armoredKeys []string, data, sig []byte) (string, error) {
	var ring openpgp.EntityList
	for _, k := range armoredKeys {
		el, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k))
		if err != nil {
			return "", fmt.Errorf("a signing key does not parse: %w", err)
		}
		ring = append(ring, el...)
	}
	check := openpgp.CheckDetachedSignature
	if bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN")) {
		check = openpgp.CheckArmoredDetachedSignature
	}
	signer, err := check(ring, bytes.NewReader(data), bytes.NewReader(sig), nil)
	if err != nil {
		return "", err
	}
	return strings.ToUpper(fmt.Sprintf("%016x", signer.PrimaryKey.KeyId)), nil
}

// ParseSHA256SUMS reads a checksums document: lines of 64 hexadecimal
// digits, whitespace, and a file name (sha256sum's format; a "*" before the
// name marks binary mode and is dropped).
func ParseSHA256SUMS(b []byte) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d: want a checksum and a file name", line)
		}
		sum, err := parseSHA256Hex(fields[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: %s", line, err)
		}
		name := strings.TrimPrefix(fields[1], "*")
		if name == "" {
			return nil, fmt.Errorf("line %d: the checksum has no file name after the binary-mode marker", line)
		}
		if prev, dup := out[name]; dup && prev != sum {
			return nil, fmt.Errorf("line %d: %s is listed twice with different checksums", line, name)
		}
		out[name] = sum
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func parseSHA256Hex(s string) ([sha256.Size]byte, error) {
	var out [sha256.Size]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != sha256.Size {
		return out, fmt.Errorf("%q is not a SHA-256 checksum", s)
	}
	copy(out[:], b)
	return out, nil
}

// hashesAuth checks a package against hashes a mirror vouched for.
type hashesAuth struct {
	provider addrs.Provider
	version  Version
	src      string
	hashes   []Hash
}

func (a *hashesAuth) AcceptableHashes() []Hash { return a.hashes }

func (a *hashesAuth) Authenticate(loc PackageLocation) (*AuthResult, error) {
	if len(a.hashes) == 0 {
		return &AuthResult{}, nil
	}
	got, err := PackageHashes(loc)
	if err != nil {
		return nil, err
	}
	if !MatchesAny(got, a.hashes) {
		return nil, ErrChecksumMismatch{Provider: a.provider, Version: a.version, What: "the hashes " + a.src + " lists", Got: got, Want: a.hashes}
	}
	return &AuthResult{Signed: "verified checksum"}, nil
}
