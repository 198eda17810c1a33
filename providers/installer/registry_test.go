package installer

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/tenetplan/tenet/providers/getproviders"
)

// testKey is an OpenPGP key made for the tests (EdDSA: quick to make).
type testKey struct {
	entity *openpgp.Entity
	armor  string
}

var (
	keysOnce sync.Once
	keys     [2]testKey
)

func testKeys(t *testing.T) [2]testKey {
	t.Helper()
	keysOnce.Do(func() {
		for i := range keys {
			e, err := openpgp.NewEntity(fmt.Sprintf("test registry %d", i), "", "registry@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
			if err != nil {
				panic(err)
			}
			var buf bytes.Buffer
			w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
			if err != nil {
				panic(err)
			}
			if err := e.Serialize(w); err != nil {
				panic(err)
			}
			w.Close()
			keys[i] = testKey{entity: e, armor: buf.String()}
		}
	})
	return keys
}

func (k testKey) id() string { return strings.ToUpper(fmt.Sprintf("%016x", k.entity.PrimaryKey.KeyId)) }

// packageZip builds a provider package: one executable shell script.
func packageZip(t *testing.T, typ, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: "terraform-provider-" + typ + "_v" + version, Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "#!/bin/sh\necho %s %s\n", typ, version)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fakeRegistry serves the provider registry protocol for example.com.
// Knobs let tests make it misbehave in each way the installer must catch.
type fakeRegistry struct {
	t        *testing.T
	srv      *httptest.Server
	typ      string
	versions []string
	zips     map[string][]byte // by filename
	sums     []byte
	sig      []byte
	key      testKey // published
	signer   testKey // used to sign

	// misbehaviours
	badShasum    bool
	nonsense     bool
	noKeys       bool
	requests     []string
	auth         []string
	mu           sync.Mutex
	platforms    []string
	versionsJSON string
}

func newFakeRegistry(t *testing.T, typ string, versions ...string) *fakeRegistry {
	t.Helper()
	k := testKeys(t)
	r := &fakeRegistry{t: t, typ: typ, versions: versions, zips: map[string][]byte{}, key: k[0], signer: k[0], platforms: []string{"linux_amd64", "darwin_arm64"}}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	r.build()
	return r
}

func (r *fakeRegistry) filename(v, plat string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", r.typ, v, plat)
}

// build makes every package and (re)signs SHA256SUMS per version; one
// SHA256SUMS per version, as real registries publish.
func (r *fakeRegistry) build() {
	for _, v := range r.versions {
		for _, plat := range r.platforms {
			r.zips[r.filename(v, plat)] = packageZip(r.t, r.typ, v+"-"+plat)
		}
	}
}

func (r *fakeRegistry) sumsFor(v string) []byte {
	var b bytes.Buffer
	for _, plat := range r.platforms {
		sum := sha256.Sum256(r.zips[r.filename(v, plat)])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), r.filename(v, plat))
	}
	return b.Bytes()
}

func (r *fakeRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests = append(r.requests, req.URL.Path)
	r.auth = append(r.auth, req.Header.Get("Authorization"))
	r.mu.Unlock()
	p := req.URL.Path
	base := "/v1/providers/acme/" + r.typ + "/"
	switch {
	case p == "/.well-known/terraform.json":
		w.Header().Set("Content-Type", "application/json") // service discovery requires it
		fmt.Fprint(w, `{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"}`)
	case p == base+"versions":
		if r.versionsJSON != "" {
			fmt.Fprint(w, r.versionsJSON)
			return
		}
		var vs []map[string]any
		for _, v := range r.versions {
			vs = append(vs, map[string]any{"version": v, "protocols": []string{"5.0"}})
		}
		json.NewEncoder(w).Encode(map[string]any{"versions": vs})
	case strings.HasPrefix(p, base) && strings.Contains(p, "/download/"):
		rest := strings.Split(strings.TrimPrefix(p, base), "/") // VERSION download OS ARCH
		if len(rest) != 4 {
			http.NotFound(w, req)
			return
		}
		v, plat := rest[0], rest[2]+"_"+rest[3]
		zipData, ok := r.zips[r.filename(v, plat)]
		if !ok {
			http.NotFound(w, req)
			return
		}
		if r.nonsense {
			fmt.Fprint(w, `{"filename": "../../etc/passwd", "download_url": "file:///etc/passwd"}`)
			return
		}
		sum := sha256.Sum256(zipData)
		if r.badShasum {
			sum[0] ^= 0xff
		}
		keys := []map[string]string{{"key_id": r.key.id(), "ascii_armor": r.key.armor}}
		if r.noKeys {
			keys = nil
		}
		json.NewEncoder(w).Encode(map[string]any{
			"protocols": []string{"5.0"}, "os": rest[2], "arch": rest[3],
			"filename":              r.filename(v, plat),
			"download_url":          "/files/" + r.filename(v, plat),
			"shasums_url":           "/files/" + v + "/SHA256SUMS",
			"shasums_signature_url": "/files/" + v + "/SHA256SUMS.sig",
			"shasum":                hex.EncodeToString(sum[:]),
			"signing_keys":          map[string]any{"gpg_public_keys": keys},
		})
	case strings.HasSuffix(p, "/SHA256SUMS"):
		w.Write(r.sumsFor(strings.Split(p, "/")[2]))
	case strings.HasSuffix(p, "/SHA256SUMS.sig"):
		var sig bytes.Buffer
		if err := openpgp.DetachSign(&sig, r.signer.entity, bytes.NewReader(r.sumsFor(strings.Split(p, "/")[2])), nil); err != nil {
			r.t.Error(err)
		}
		w.Write(sig.Bytes())
	case strings.HasPrefix(p, "/files/"):
		data, ok := r.zips[strings.TrimPrefix(p, "/files/")]
		if !ok {
			http.NotFound(w, req)
			return
		}
		w.Write(data)
	default:
		http.NotFound(w, req)
	}
}

// client reaches the fake registry for any hostname (its certificate is
// valid for example.com), trusting the test server's CA.
func (r *fakeRegistry) client() *http.Client {
	c := r.srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	addr := r.srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c.Transport = tr
	return c
}

func (r *fakeRegistry) zh(v, plat string) getproviders.Hash {
	sum := sha256.Sum256(r.zips[r.filename(v, plat)])
	return getproviders.ZHFromSHA256(sum)
}
