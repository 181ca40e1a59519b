package node

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// keyState is the key behind a KeyObject: a secret, or a private or
// public RSA, EC or Ed25519 key.
type keyState struct {
	secret []byte
	priv   crypto.Signer // nil for a public or secret key
	pub    crypto.PublicKey
}

func (k *keyState) kind() string {
	switch {
	case k.secret != nil:
		return "secret"
	case k.priv != nil:
		return "private"
	}
	return "public"
}

// errKeyFormat is the error for key data dwk cannot read.
func errKeyFormat(what string) error {
	return jsrt.Errorf("TypeError", "unsupported key: %s (dwk reads PEM and DER in PKCS#1, PKCS#8, SEC1, SPKI and X.509, and JWK; not encrypted keys)", what)
}

// parseKey reads a private or public key (want) from PEM text, DER bytes
// of type derType, or a JWK in JSON. A public key may be read from a
// private key or a certificate.
func parseKey(want string, data []byte, format, derType string) (*keyState, error) {
	switch format {
	case "jwk":
		return parseJWK(want, data)
	case "der":
		return parseDER(want, data, derType)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errKeyFormat("no PEM block found")
	}
	if x509.IsEncryptedPEMBlock(block) || block.Type == "ENCRYPTED PRIVATE KEY" { //nolint:staticcheck // only to name the problem
		return nil, errKeyFormat("the key is encrypted")
	}
	switch block.Type {
	case "PRIVATE KEY":
		return parseDER(want, block.Bytes, "pkcs8")
	case "RSA PRIVATE KEY":
		return parseDER(want, block.Bytes, "pkcs1")
	case "EC PRIVATE KEY":
		return parseDER(want, block.Bytes, "sec1")
	case "PUBLIC KEY":
		return parseDER(want, block.Bytes, "spki")
	case "RSA PUBLIC KEY":
		return parseDER(want, block.Bytes, "pkcs1-public")
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, errKeyFormat(err.Error())
		}
		return publicOnly(want, &keyState{pub: cert.PublicKey})
	}
	return nil, errKeyFormat(fmt.Sprintf("PEM block %q", block.Type))
}

func parseDER(want string, der []byte, typ string) (*keyState, error) {
	var priv any
	var err error
	switch typ {
	case "pkcs8":
		priv, err = x509.ParsePKCS8PrivateKey(der)
	case "sec1":
		priv, err = x509.ParseECPrivateKey(der)
	case "pkcs1":
		if want == "public" {
			if pub, perr := x509.ParsePKCS1PublicKey(der); perr == nil {
				return &keyState{pub: pub}, nil
			}
		}
		priv, err = x509.ParsePKCS1PrivateKey(der)
	case "pkcs1-public":
		pub, perr := x509.ParsePKCS1PublicKey(der)
		if perr != nil {
			return nil, errKeyFormat(perr.Error())
		}
		return publicOnly(want, &keyState{pub: pub})
	case "spki":
		pub, perr := x509.ParsePKIXPublicKey(der)
		if perr != nil {
			return nil, errKeyFormat(perr.Error())
		}
		return publicOnly(want, &keyState{pub: pub})
	default:
		return nil, errKeyFormat(fmt.Sprintf("DER type %q", typ))
	}
	if err != nil {
		return nil, errKeyFormat(err.Error())
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, errKeyFormat(fmt.Sprintf("%T keys", priv))
	}
	k := &keyState{priv: signer, pub: signer.Public()}
	if want == "public" {
		k.priv = nil
	}
	return k, nil
}

func publicOnly(want string, k *keyState) (*keyState, error) {
	if want == "private" {
		return nil, jsrt.Errorf("TypeError", "a private key is needed, and this is a public key")
	}
	return k, nil
}

// jwk is a JSON Web Key's fields for RSA, EC and OKP keys.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	D   string `json:"d,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
	P   string `json:"p,omitempty"`
	Q   string `json:"q,omitempty"`
	Dp  string `json:"dp,omitempty"`
	Dq  string `json:"dq,omitempty"`
	Qi  string `json:"qi,omitempty"`
	K   string `json:"k,omitempty"`
}

var b64url = base64.RawURLEncoding

func bigOf(s string) *big.Int { b, _ := b64url.DecodeString(s); return new(big.Int).SetBytes(b) }

var jwkCurves = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

func parseJWK(want string, data []byte) (*keyState, error) {
	var j jwk
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, errKeyFormat("JWK: " + err.Error())
	}
	private := j.D != ""
	if want == "private" && !private {
		return nil, jsrt.Errorf("TypeError", "a private key is needed, and this JWK has no \"d\"")
	}
	var k *keyState
	switch j.Kty {
	case "oct":
		s, err := b64url.DecodeString(j.K)
		if err != nil {
			return nil, errKeyFormat("JWK \"k\": " + err.Error())
		}
		return &keyState{secret: s}, nil
	case "RSA":
		pub := &rsa.PublicKey{N: bigOf(j.N), E: int(bigOf(j.E).Int64())}
		if pub.N.BitLen() < 512 || pub.E < 3 || pub.E&1 == 0 {
			return nil, errKeyFormat("JWK RSA key: \"n\" or \"e\" is missing or invalid")
		}
		k = &keyState{pub: pub}
		if private {
			priv := &rsa.PrivateKey{PublicKey: *pub, D: bigOf(j.D)}
			if j.P != "" && j.Q != "" {
				priv.Primes = []*big.Int{bigOf(j.P), bigOf(j.Q)}
			}
			if err := priv.Validate(); err != nil {
				return nil, errKeyFormat("JWK RSA key: " + err.Error())
			}
			priv.Precompute()
			k = &keyState{priv: priv, pub: &priv.PublicKey}
		}
	case "EC":
		curve, ok := jwkCurves[j.Crv]
		if !ok {
			return nil, errKeyFormat(fmt.Sprintf("JWK curve %q", j.Crv))
		}
		pub := &ecdsa.PublicKey{Curve: curve, X: bigOf(j.X), Y: bigOf(j.Y)}
		if _, err := pub.ECDH(); err != nil {
			return nil, errKeyFormat("JWK EC key: \"x\" and \"y\" are not a point of " + j.Crv)
		}
		k = &keyState{pub: pub}
		if private {
			priv := &ecdsa.PrivateKey{PublicKey: *pub, D: bigOf(j.D)}
			k = &keyState{priv: priv, pub: pub}
		}
	case "OKP":
		if j.Crv != "Ed25519" {
			return nil, errKeyFormat(fmt.Sprintf("JWK curve %q", j.Crv))
		}
		x, _ := b64url.DecodeString(j.X)
		if len(x) != ed25519.PublicKeySize {
			return nil, errKeyFormat("JWK Ed25519 \"x\" is not 32 bytes")
		}
		k = &keyState{pub: ed25519.PublicKey(x)}
		if private {
			d, _ := b64url.DecodeString(j.D)
			if len(d) != ed25519.SeedSize {
				return nil, errKeyFormat("JWK Ed25519 \"d\" is not 32 bytes")
			}
			priv := ed25519.NewKeyFromSeed(d)
			k = &keyState{priv: priv, pub: priv.Public()}
		}
	default:
		return nil, errKeyFormat(fmt.Sprintf("JWK kty %q", j.Kty))
	}
	if want == "public" {
		k.priv = nil
	}
	return k, nil
}

// keyDetails describes a key as KeyObject's asymmetricKeyType and
// asymmetricKeyDetails do.
func keyDetails(k *keyState) map[string]any {
	d := map[string]any{"type": k.kind()}
	switch p := k.pub.(type) {
	case *rsa.PublicKey:
		d["asymmetricKeyType"] = "rsa"
		d["modulusLength"] = p.N.BitLen()
		d["publicExponent"] = p.E
	case *ecdsa.PublicKey:
		d["asymmetricKeyType"] = "ec"
		d["namedCurve"] = map[string]string{"P-256": "prime256v1", "P-384": "secp384r1", "P-521": "secp521r1"}[p.Curve.Params().Name]
	case ed25519.PublicKey:
		d["asymmetricKeyType"] = "ed25519"
	}
	if k.secret != nil {
		d["symmetricKeySize"] = len(k.secret)
	}
	return d
}

// exportKey writes a key as PEM text, DER bytes or JWK JSON.
func exportKey(k *keyState, format, typ string) (any, error) {
	if k.secret != nil {
		if format == "jwk" {
			return toJSON(jwk{Kty: "oct", K: b64url.EncodeToString(k.secret)})
		}
		return append([]byte(nil), k.secret...), nil
	}
	if format == "jwk" {
		return exportJWK(k)
	}
	var der []byte
	var err error
	var pemType string
	switch {
	case k.priv != nil && (typ == "pkcs8" || typ == ""):
		der, err = x509.MarshalPKCS8PrivateKey(k.priv)
		pemType = "PRIVATE KEY"
	case k.priv != nil && typ == "pkcs1":
		rk, ok := k.priv.(*rsa.PrivateKey)
		if !ok {
			return nil, jsrt.Errorf("TypeError", "only RSA keys export as pkcs1")
		}
		der, pemType = x509.MarshalPKCS1PrivateKey(rk), "RSA PRIVATE KEY"
	case k.priv != nil && typ == "sec1":
		ek, ok := k.priv.(*ecdsa.PrivateKey)
		if !ok {
			return nil, jsrt.Errorf("TypeError", "only EC keys export as sec1")
		}
		der, err = x509.MarshalECPrivateKey(ek)
		pemType = "EC PRIVATE KEY"
	case k.priv == nil && (typ == "spki" || typ == ""):
		der, err = x509.MarshalPKIXPublicKey(k.pub)
		pemType = "PUBLIC KEY"
	case k.priv == nil && typ == "pkcs1":
		rk, ok := k.pub.(*rsa.PublicKey)
		if !ok {
			return nil, jsrt.Errorf("TypeError", "only RSA keys export as pkcs1")
		}
		der, pemType = x509.MarshalPKCS1PublicKey(rk), "RSA PUBLIC KEY"
	default:
		return nil, jsrt.Errorf("TypeError", "a %s key does not export as type %q", k.kind(), typ)
	}
	if err != nil {
		return nil, err
	}
	if format == "der" {
		return der, nil
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: pemType, Bytes: der})), nil
}

func exportJWK(k *keyState) (any, error) {
	var j jwk
	switch p := k.pub.(type) {
	case *rsa.PublicKey:
		j = jwk{Kty: "RSA", N: b64url.EncodeToString(p.N.Bytes()), E: b64url.EncodeToString(big.NewInt(int64(p.E)).Bytes())}
		if rk, ok := k.priv.(*rsa.PrivateKey); ok {
			j.D = b64url.EncodeToString(rk.D.Bytes())
			if len(rk.Primes) == 2 {
				j.P, j.Q = b64url.EncodeToString(rk.Primes[0].Bytes()), b64url.EncodeToString(rk.Primes[1].Bytes())
				j.Dp, j.Dq = b64url.EncodeToString(rk.Precomputed.Dp.Bytes()), b64url.EncodeToString(rk.Precomputed.Dq.Bytes())
				j.Qi = b64url.EncodeToString(rk.Precomputed.Qinv.Bytes())
			}
		}
	case *ecdsa.PublicKey:
		size := (p.Curve.Params().BitSize + 7) / 8
		j = jwk{Kty: "EC", Crv: p.Curve.Params().Name, X: b64url.EncodeToString(p.X.FillBytes(make([]byte, size))), Y: b64url.EncodeToString(p.Y.FillBytes(make([]byte, size)))}
		if ek, ok := k.priv.(*ecdsa.PrivateKey); ok {
			j.D = b64url.EncodeToString(ek.D.FillBytes(make([]byte, size)))
		}
	case ed25519.PublicKey:
		j = jwk{Kty: "OKP", Crv: "Ed25519", X: b64url.EncodeToString(p)}
		if ek, ok := k.priv.(ed25519.PrivateKey); ok {
			j.D = b64url.EncodeToString(ek.Seed())
		}
	default:
		return nil, jsrt.Errorf("TypeError", "this key does not export as JWK")
	}
	return toJSON(j)
}

func toJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// keysEqual reports whether two keys are the same key.
func keysEqual(a, b *keyState) bool {
	if a.kind() != b.kind() {
		return false
	}
	if a.secret != nil {
		return len(a.secret) == len(b.secret) && subtle.ConstantTimeCompare(a.secret, b.secret) == 1
	}
	type equaler interface{ Equal(crypto.PublicKey) bool }
	e, ok := a.pub.(equaler)
	return ok && e.Equal(b.pub)
}

// generateKey makes a key pair of kind rsa, ec or ed25519.
func generateKey(kind string, modulusLength int, curve string) (*keyState, error) {
	var priv crypto.Signer
	var err error
	switch kind {
	case "rsa":
		if modulusLength < 1024 || modulusLength > 16384 {
			return nil, jsrt.Errorf("RangeError", "modulusLength must be from 1024 to 16384 bits, not %d", modulusLength)
		}
		priv, err = rsa.GenerateKey(nil, modulusLength)
	case "ec":
		c, ok := map[string]elliptic.Curve{"prime256v1": elliptic.P256(), "P-256": elliptic.P256(), "secp256r1": elliptic.P256(),
			"secp384r1": elliptic.P384(), "P-384": elliptic.P384(), "secp521r1": elliptic.P521(), "P-521": elliptic.P521()}[curve]
		if !ok {
			return nil, jsrt.Errorf("TypeError", "Invalid EC curve name %q: dwk offers prime256v1, secp384r1 and secp521r1", curve)
		}
		priv, err = ecdsa.GenerateKey(c, nil)
	case "ed25519":
		_, priv, err = ed25519.GenerateKey(nil)
	default:
		return nil, jsrt.Errorf("TypeError", "dwk cannot generate %q key pairs (it makes rsa, ec and ed25519)", kind)
	}
	if err != nil {
		return nil, err
	}
	return &keyState{priv: priv, pub: priv.Public()}, nil
}

// installKeys adds the natives of KeyObject, createPrivateKey,
// createPublicKey and generateKeyPair.
func installKeys(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	n.Set("keyParse", func(c goja.FunctionCall) goja.Value {
		data, ok := iso.Bytes(c.Argument(1))
		if !ok {
			data = []byte(c.Argument(1).String())
		}
		k, err := parseKey(c.Argument(0).String(), data, c.Argument(2).String(), c.Argument(3).String())
		if err != nil {
			iso.Throw(err)
		}
		return rt.ToValue(k)
	})
	n.Set("keySecret", func(c goja.FunctionCall) goja.Value {
		b, ok := iso.Bytes(c.Argument(0))
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "a secret key must be a Buffer, a TypedArray or a DataView"))
		}
		return rt.ToValue(&keyState{secret: append([]byte{}, b...)})
	})
	n.Set("keyPublic", func(c goja.FunctionCall) goja.Value {
		k := keyArg(iso, c.Argument(0))
		if k.secret != nil {
			iso.Throw(jsrt.Errorf("TypeError", "a secret key has no public key"))
		}
		return rt.ToValue(&keyState{pub: k.pub})
	})
	n.Set("keyDetails", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(keyDetails(keyArg(iso, c.Argument(0))))
	})
	n.Set("keyExport", func(c goja.FunctionCall) goja.Value {
		out, err := exportKey(keyArg(iso, c.Argument(0)), c.Argument(1).String(), c.Argument(2).String())
		if err != nil {
			iso.Throw(err)
		}
		if b, ok := out.([]byte); ok {
			return iso.NewArrayBuffer(b)
		}
		return rt.ToValue(out)
	})
	n.Set("keyEquals", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(keysEqual(keyArg(iso, c.Argument(0)), keyArg(iso, c.Argument(1))))
	})
	// keyGenerate(kind, modulusLength, namedCurve)
	n.Set("keyGenerate", func(c goja.FunctionCall) goja.Value {
		k, err := generateKey(c.Argument(0).String(), int(c.Argument(1).ToInteger()), c.Argument(2).String())
		if err != nil {
			iso.Throw(err)
		}
		return rt.ToValue(k)
	})
}

func keyArg(iso *jsrt.Isolate, v goja.Value) *keyState {
	k, ok := v.Export().(*keyState)
	if !ok {
		iso.Throw(jsrt.Errorf("TypeError", "not a key"))
	}
	return k
}
