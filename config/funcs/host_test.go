package funcs

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Paths outside the working-directory FS come from the host only when the
// engine says which host directory FS stands for.
func TestHostFileFallback(t *testing.T) {
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(root, "shared.txt")
	if err := os.WriteFile(shared, []byte("shared"), 0o644); err != nil {
		t.Fatal(err)
	}
	testVars["shared_abs"] = cty.StringVal(shared)
	t.Cleanup(func() { delete(testVars, "shared_abs") })

	runCases(t, Options{FS: testFS, HostDir: work}, []evalCase{
		{name: "parent via host", expr: `file("../shared.txt")`, want: cty.StringVal("shared")},
		{name: "absolute via host", expr: `file(shared_abs)`, want: cty.StringVal("shared")},
		{name: "inside still from FS", expr: `file("hello.txt")`, want: cty.StringVal("Hello World")},
	})
	runCases(t, Options{}, []evalCase{
		{name: "no FS reads host", expr: `file(shared_abs)`, want: cty.StringVal("shared")},
		{name: "no FS fileexists", expr: `fileexists(shared_abs)`, want: cty.True},
	})
	runCases(t, Options{FS: testFS}, []evalCase{
		{name: "absolute refused without host dir", expr: `fileexists(shared_abs)`, want: cty.False},
	})
}

func TestRSADecrypt(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ciphertext, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("opensesame"))
	if err != nil {
		t.Fatal(err)
	}
	testVars["ciphertext"] = cty.StringVal(base64.StdEncoding.EncodeToString(ciphertext))
	testVars["private_key"] = cty.StringVal(string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})))
	t.Cleanup(func() { delete(testVars, "ciphertext"); delete(testVars, "private_key") })

	runCases(t, Options{}, []evalCase{
		{name: "decrypts", expr: `rsadecrypt(ciphertext, private_key)`, want: cty.StringVal("opensesame")},
		{name: "bad key", expr: `rsadecrypt(ciphertext, "nope")`, wantErr: "Invalid function argument", wantDetail: "invalid private key"},
		{name: "bad ciphertext", expr: `rsadecrypt("!!", private_key)`, wantErr: "Invalid function argument", wantDetail: "base64"},
	})
}
