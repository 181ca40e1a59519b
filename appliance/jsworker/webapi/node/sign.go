package node

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/asn1"
	"fmt"
	"math/big"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Node's RSA padding and PSS salt length constants.
const (
	rsaPKCS1Padding  = 1
	rsaPSSPadding    = 6
	pssSaltDigest    = -1
	pssSaltMaxOrAuto = -2
)

// cryptoHashes maps the hash names to crypto.Hash for the RSA and ECDSA
// functions.
var cryptoHashes = map[string]crypto.Hash{
	"md5": crypto.MD5, "sha1": crypto.SHA1, "sha224": crypto.SHA224, "sha256": crypto.SHA256,
	"sha384": crypto.SHA384, "sha512": crypto.SHA512, "sha512-224": crypto.SHA512_224, "sha512-256": crypto.SHA512_256,
	"sha3-224": crypto.SHA3_224, "sha3-256": crypto.SHA3_256, "sha3-384": crypto.SHA3_384, "sha3-512": crypto.SHA3_512,
	"ripemd160": crypto.RIPEMD160,
}

func cryptoHash(name string) (crypto.Hash, error) {
	if name == "" {
		return crypto.SHA256, nil
	}
	key := strings.ToLower(name)
	if alias, ok := hashAliases[key]; ok {
		key = alias
	}
	if h, ok := cryptoHashes[key]; ok {
		return h, nil
	}
	return 0, jsrt.Errorf("Error", "Invalid digest: %q", name)
}

// signOptions are the padding, salt length and DSA signature encoding a
// sign or verify call takes.
type signOptions struct {
	padding    int
	saltLength int
	p1363      bool
}

func (o signOptions) pss(h crypto.Hash) *rsa.PSSOptions {
	switch o.saltLength {
	case pssSaltDigest:
		return &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: h}
	case pssSaltMaxOrAuto:
		// Node signs with the longest salt and verifies any length;
		// Go's auto does both.
		return &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto, Hash: h}
	}
	return &rsa.PSSOptions{SaltLength: o.saltLength, Hash: h}
}

// signWith signs data (or, prehashed, its digest) with key.
func signWith(k *keyState, hashName string, data []byte, prehashed bool, o signOptions) ([]byte, error) {
	if k.priv == nil {
		return nil, jsrt.Errorf("TypeError", "signing needs a private key, and this is a %s key", k.kind())
	}
	if ek, ok := k.priv.(ed25519.PrivateKey); ok {
		if prehashed {
			return nil, jsrt.Errorf("Error", "Ed25519 keys sign with crypto.sign(null, data, key), not with createSign")
		}
		return ed25519.Sign(ek, data), nil
	}
	h, err := cryptoHash(hashName)
	if err != nil {
		return nil, err
	}
	digest := data
	if !prehashed {
		hh := h.New()
		hh.Write(data)
		digest = hh.Sum(nil)
	}
	switch key := k.priv.(type) {
	case *rsa.PrivateKey:
		if o.padding == rsaPSSPadding {
			return rsa.SignPSS(rand.Reader, key, h, digest, o.pss(h))
		}
		return rsa.SignPKCS1v15(rand.Reader, key, h, digest)
	case *ecdsa.PrivateKey:
		der, err := ecdsa.SignASN1(rand.Reader, key, digest)
		if err != nil || !o.p1363 {
			return der, err
		}
		return derToP1363(der, key.Curve.Params().BitSize)
	}
	return nil, jsrt.Errorf("TypeError", "dwk cannot sign with %T keys", k.priv)
}

// verifyWith checks sig over data (or its digest) with key's public key.
func verifyWith(k *keyState, hashName string, data, sig []byte, prehashed bool, o signOptions) (bool, error) {
	if k.secret != nil {
		return false, jsrt.Errorf("TypeError", "verifying needs a public or private key, and this is a secret key")
	}
	if pub, ok := k.pub.(ed25519.PublicKey); ok {
		if prehashed {
			return false, jsrt.Errorf("Error", "Ed25519 keys verify with crypto.verify(null, data, key, signature), not with createVerify")
		}
		return ed25519.Verify(pub, data, sig), nil
	}
	h, err := cryptoHash(hashName)
	if err != nil {
		return false, err
	}
	digest := data
	if !prehashed {
		hh := h.New()
		hh.Write(data)
		digest = hh.Sum(nil)
	}
	switch pub := k.pub.(type) {
	case *rsa.PublicKey:
		if o.padding == rsaPSSPadding {
			return rsa.VerifyPSS(pub, h, digest, sig, o.pss(h)) == nil, nil
		}
		return rsa.VerifyPKCS1v15(pub, h, digest, sig) == nil, nil
	case *ecdsa.PublicKey:
		if o.p1363 {
			size := (pub.Curve.Params().BitSize + 7) / 8
			if len(sig) != 2*size {
				return false, nil
			}
			r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
			return ecdsa.Verify(pub, digest, r, s), nil
		}
		return ecdsa.VerifyASN1(pub, digest, sig), nil
	}
	return false, jsrt.Errorf("TypeError", "dwk cannot verify with %T keys", k.pub)
}

// derToP1363 turns an ASN.1 ECDSA signature into r || s of fixed size.
func derToP1363(der []byte, bits int) ([]byte, error) {
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &sig); err != nil {
		return nil, fmt.Errorf("re-encode the ECDSA signature: %w", err)
	}
	size := (bits + 7) / 8
	out := make([]byte, 2*size)
	sig.R.FillBytes(out[:size])
	sig.S.FillBytes(out[size:])
	return out, nil
}

// installSign adds the natives of sign, verify, createSign and
// createVerify: sign(hash, data, key, prehashed, padding, saltLength,
// dsaEncoding) and verify(hash, data, key, signature, prehashed, padding,
// saltLength, dsaEncoding).
func installSign(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	opts := func(padding, salt, enc goja.Value) signOptions {
		o := signOptions{padding: rsaPKCS1Padding, saltLength: pssSaltMaxOrAuto, p1363: enc.String() == "ieee-p1363"}
		if !goja.IsUndefined(padding) && !goja.IsNull(padding) {
			o.padding = int(padding.ToInteger())
		}
		if !goja.IsUndefined(salt) && !goja.IsNull(salt) {
			o.saltLength = int(salt.ToInteger())
		}
		return o
	}
	hashArg := func(v goja.Value) string {
		if goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	n.Set("sign", func(c goja.FunctionCall) goja.Value {
		data, _ := iso.Bytes(c.Argument(1))
		sig, err := signWith(keyArg(iso, c.Argument(2)), hashArg(c.Argument(0)), data, c.Argument(3).ToBoolean(),
			opts(c.Argument(4), c.Argument(5), c.Argument(6)))
		if err != nil {
			iso.Throw(err)
		}
		return iso.NewArrayBuffer(sig)
	})
	n.Set("verify", func(c goja.FunctionCall) goja.Value {
		data, _ := iso.Bytes(c.Argument(1))
		sig, _ := iso.Bytes(c.Argument(3))
		ok, err := verifyWith(keyArg(iso, c.Argument(2)), hashArg(c.Argument(0)), data, sig, c.Argument(4).ToBoolean(),
			opts(c.Argument(5), c.Argument(6), c.Argument(7)))
		if err != nil {
			iso.Throw(err)
		}
		return rt.ToValue(ok)
	})
}
