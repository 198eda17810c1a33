package funcs

import (
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"

	uuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/crypto/bcrypt"
)

type hashFunc func([]byte) []byte

func md5Sum(b []byte) []byte    { s := md5.Sum(b); return s[:] }
func sha1Sum(b []byte) []byte   { s := sha1.Sum(b); return s[:] }
func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
func sha512Sum(b []byte) []byte { s := sha512.Sum512(b); return s[:] }

func encodeHex(b []byte) string    { return hex.EncodeToString(b) }
func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// makeStringHashFunc hashes the UTF-8 bytes of a string.
func makeStringHashFunc(hash hashFunc, encode func([]byte) string) function.Function {
	return stringFunc("Hashes the UTF-8 bytes of the given string.", "str", cannotFail(func(s string) string {
		return encode(hash([]byte(s)))
	}))
}

// uuidFunc is impure: Table wraps it to return unknown when planning.
var uuidFunc = function.New(&function.Spec{
	Description:  "Returns a new random UUID.",
	Params:       []function.Parameter{},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
		id, err := uuid.GenerateUUID()
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(id), nil
	},
})

// Namespaces defined by RFC 4122 appendix C, accepted by name in uuidv5.
var uuidNamespaces = map[string]string{
	"dns":  "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
	"url":  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"oid":  "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
	"x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

var uuidV5Func = twoStringFunc("Returns the name-based (SHA-1) UUID of name within namespace.", "namespace", "name", cty.String, func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	ns := args[0].AsString()
	if known, ok := uuidNamespaces[ns]; ok {
		ns = known
	}
	nsBytes, err := uuid.ParseUUID(ns)
	if err != nil {
		return cty.NilVal, fmt.Errorf("uuidv5() doesn't support namespace %s (%v)", args[0].AsString(), err)
	}
	h := sha1.New()
	h.Write(nsBytes)
	h.Write([]byte(args[1].AsString()))
	sum := h.Sum(nil)[:16]
	sum[6] = sum[6]&0x0f | 0x50 // version 5
	sum[8] = sum[8]&0x3f | 0x80 // RFC 4122 variant
	id, err := uuid.FormatUUID(sum)
	if err != nil {
		return cty.NilVal, err
	}
	return cty.StringVal(id), nil
})

// bcryptFunc is impure (a fresh salt each call): Table wraps it to return
// unknown when planning.
var bcryptFunc = function.New(&function.Spec{
	Description:  "Hashes the string with bcrypt, at the given cost (default 10).",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	VarParam:     &function.Parameter{Name: "cost", Type: cty.Number},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		cost := bcrypt.DefaultCost
		if len(args) > 2 {
			return cty.NilVal, errors.New("bcrypt() takes no more than two arguments")
		}
		if len(args) == 2 {
			c, acc := args[1].AsBigFloat().Int64()
			if acc != 0 {
				return cty.NilVal, function.NewArgErrorf(1, "cost must be a whole number")
			}
			cost = int(c)
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
		if err != nil {
			return cty.NilVal, fmt.Errorf("error occurred generating password %s", err.Error())
		}
		return cty.StringVal(string(hash)), nil
	},
})

// rsaDecryptFunc decrypts Base64 ciphertext made with RSA PKCS #1 v1.5
// using a PEM private key (PKCS #1 or PKCS #8).
var rsaDecryptFunc = twoStringFunc("Decrypts Base64 RSA-encrypted ciphertext with a PEM private key.", "ciphertext", "privatekey", cty.String, func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	ciphertext, err := base64.StdEncoding.DecodeString(args[0].AsString())
	if err != nil {
		return cty.NilVal, function.NewArgErrorf(0, "failed to decode input: cipher text must be base64-encoded")
	}
	block, _ := pem.Decode([]byte(args[1].AsString()))
	if block == nil {
		return cty.NilVal, function.NewArgErrorf(1, "invalid private key: no key found")
	}
	key, err := parseRSAPrivateKey(block.Bytes)
	if err != nil {
		return cty.NilVal, function.NewArgErrorf(1, "invalid private key: %s", err)
	}
	out, err := rsa.DecryptPKCS1v15(nil, key, ciphertext)
	if err != nil {
		return cty.NilVal, fmt.Errorf("failed to decrypt: %w", err)
	}
	return cty.StringVal(string(out)), nil
})

func parseRSAPrivateKey(der []byte) (*rsa.PrivateKey, error) {
	if key, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return key, nil
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, errors.New("failed to parse key: not a PKCS #1 or PKCS #8 RSA private key")
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("failed to parse key: not an RSA private key")
	}
	return key, nil
}
