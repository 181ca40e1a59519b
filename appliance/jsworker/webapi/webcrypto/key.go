package webcrypto

import (
	"crypto"
	"crypto/rsa"
	"math/big"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// keyType is a CryptoKey's type.
type keyType string

const (
	secretKey  keyType = "secret"
	publicKey  keyType = "public"
	privateKey keyType = "private"
)

// key is the Go side of a CryptoKey: its algorithm and its material.
// JavaScript holds a *key as an opaque handle (it has no exported fields or
// methods, so goja shows it as an empty object) in a private field of the
// CryptoKey.
type key struct {
	alg   string // the normalized algorithm name: "HMAC", "AES-GCM", "ECDSA", …
	typ   keyType
	hash  string // HMAC and RSA: the hash the key is bound to
	curve string // ECDSA and ECDH: "P-256", "P-384" or "P-521"; NODE-ED25519: "NODE-ED25519"
	bits  int    // HMAC and AES: the key's length in bits

	secret []byte            // secret keys
	priv   crypto.PrivateKey // private keys
	pub    crypto.PublicKey  // public keys, and the public half of private keys
	rsaE   []byte            // RSA: the public exponent, big-endian, no leading zeros
	rsaN   int               // RSA: the modulus length in bits
}

// algorithm is the key's KeyAlgorithm dictionary, as CryptoKey.algorithm
// shows it. Call it on the loop.
func (k *key) algorithm(iso *jsrt.Isolate) goja.Value {
	rt := iso.Runtime()
	o := rt.NewObject()
	o.Set("name", k.alg)
	switch k.alg {
	case "AES-CTR", "AES-CBC", "AES-GCM", "AES-KW":
		o.Set("length", k.bits)
	case "HMAC":
		o.Set("length", k.bits)
		o.Set("hash", hashDict(rt, k.hash))
	case "RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP":
		o.Set("modulusLength", k.rsaN)
		o.Set("publicExponent", iso.NewUint8Array(append([]byte(nil), k.rsaE...)))
		o.Set("hash", hashDict(rt, k.hash))
	case "ECDSA", "ECDH", "NODE-ED25519":
		o.Set("namedCurve", k.curve)
	}
	return o
}

func hashDict(rt *goja.Runtime, name string) *goja.Object {
	h := rt.NewObject()
	h.Set("name", name)
	return h
}

// keyResult is what the natives hand the prelude for a new key: its
// handle, type and algorithm dictionary.
func keyResult(iso *jsrt.Isolate, k *key) goja.Value {
	rt := iso.Runtime()
	o := rt.NewObject()
	o.Set("handle", rt.ToValue(k))
	o.Set("type", string(k.typ))
	o.Set("algorithm", k.algorithm(iso))
	return o
}

// handleOf returns the key behind a handle the prelude passed.
func handleOf(v goja.Value) (*key, error) {
	if !absent(v) {
		if k, ok := v.Export().(*key); ok {
			return k, nil
		}
	}
	return nil, jsrt.Errorf(typeError, "not a CryptoKey")
}

// setRSA fills the RSA fields of k from its public key.
func (k *key) setRSA(pub *rsa.PublicKey) {
	k.pub = pub
	k.rsaN = pub.N.BitLen()
	k.rsaE = big.NewInt(int64(pub.E)).Bytes()
}

// clone returns a copy of b, which JavaScript may change after the call.
func clone(b []byte) []byte {
	return append(make([]byte, 0, len(b)), b...)
}
