package webcrypto

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// okpScheme is Ed25519 (and Cloudflare's older name for it, NODE-ED25519,
// whose keys carry namedCurve "NODE-ED25519") or X25519. Ed25519 keys are
// ed25519 keys; X25519 keys are crypto/ecdh keys.
type okpScheme struct {
	name string
}

func (s okpScheme) x25519() bool { return s.name == "X25519" }

// crv is the JWK "crv" of the scheme's keys.
func (s okpScheme) crv() string {
	if s.x25519() {
		return "X25519"
	}
	return "Ed25519"
}

func (s okpScheme) checkCurve(p *params) error {
	if s.name == "NODE-ED25519" && p.namedCurve != "NODE-ED25519" {
		return jsrt.Errorf(notSupported, "NODE-ED25519 needs the namedCurve \"NODE-ED25519\", not %q", p.namedCurve)
	}
	return nil
}

func (s okpScheme) newKey(typ keyType, priv, pub any) *key {
	k := &key{alg: s.name, typ: typ, priv: priv, pub: pub}
	if s.name == "NODE-ED25519" {
		k.curve = "NODE-ED25519"
	}
	return k
}

func (s okpScheme) generate(p *params) (*key, *key, *key, error) {
	if err := s.checkCurve(p); err != nil {
		return nil, nil, nil, err
	}
	if s.x25519() {
		priv, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return nil, nil, nil, jsrt.Errorf(operationErr, "generate an X25519 key: %v", err)
		}
		return nil, s.newKey(publicKey, nil, priv.PublicKey()), s.newKey(privateKey, priv, priv.PublicKey()), nil
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, nil, jsrt.Errorf(operationErr, "generate an Ed25519 key: %v", err)
	}
	return nil, s.newKey(publicKey, nil, pub), s.newKey(privateKey, priv, pub), nil
}

func (s okpScheme) importKey(format string, in keyData, p *params) (*key, error) {
	if err := s.checkCurve(p); err != nil {
		return nil, err
	}
	switch format {
	case "raw":
		return s.publicFromBytes(in.bytes)
	case "spki":
		k, err := x509.ParsePKIXPublicKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the spki key data is not valid: %v", err)
		}
		switch pub := k.(type) {
		case ed25519.PublicKey:
			if !s.x25519() {
				return s.newKey(publicKey, nil, pub), nil
			}
		case *ecdh.PublicKey:
			if s.x25519() && pub.Curve() == ecdh.X25519() {
				return s.newKey(publicKey, nil, pub), nil
			}
		}
		return nil, jsrt.Errorf(dataError, "the spki key data is not an %s key", s.crv())
	case "pkcs8":
		k, err := x509.ParsePKCS8PrivateKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the pkcs8 key data is not valid: %v", err)
		}
		switch priv := k.(type) {
		case ed25519.PrivateKey:
			if !s.x25519() {
				return s.newKey(privateKey, priv, priv.Public()), nil
			}
		case *ecdh.PrivateKey:
			if s.x25519() && priv.Curve() == ecdh.X25519() {
				return s.newKey(privateKey, priv, priv.PublicKey()), nil
			}
		}
		return nil, jsrt.Errorf(dataError, "the pkcs8 key data is not an %s key", s.crv())
	case "jwk":
		return s.importJWK(in)
	}
	return nil, unsupportedFormat(s.name, format)
}

func (s okpScheme) publicFromBytes(b []byte) (*key, error) {
	if len(b) != 32 {
		return nil, jsrt.Errorf(dataError, "an %s public key is 32 bytes long, not %d", s.crv(), len(b))
	}
	if s.x25519() {
		pub, err := ecdh.X25519().NewPublicKey(b)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the X25519 public key is not valid: %v", err)
		}
		return s.newKey(publicKey, nil, pub), nil
	}
	return s.newKey(publicKey, nil, ed25519.PublicKey(clone(b))), nil
}

func (s okpScheme) importJWK(in keyData) (*key, error) {
	j := in.jwk
	use := "sig"
	if s.x25519() {
		use = "enc"
	}
	if err := j.checkCommon("OKP", use, in); err != nil {
		return nil, err
	}
	if j.Crv != s.crv() {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's \"crv\" must be %q, not %q", s.crv(), j.Crv)
	}
	if !s.x25519() {
		if err := j.checkAlg("EdDSA", "Ed25519"); err != nil {
			return nil, err
		}
	}
	x, err := required("x", j.X)
	if err != nil {
		return nil, err
	}
	pk, err := s.publicFromBytes(x)
	if err != nil || j.D == "" {
		return pk, err
	}
	d, err := b64("d", j.D)
	if err != nil {
		return nil, err
	}
	if len(d) != 32 {
		return nil, jsrt.Errorf(dataError, "an %s private key is 32 bytes long, not %d", s.crv(), len(d))
	}
	var sk *key
	var pubBytes []byte
	if s.x25519() {
		priv, err := ecdh.X25519().NewPrivateKey(d)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the X25519 private key is not valid: %v", err)
		}
		sk, pubBytes = s.newKey(privateKey, priv, priv.PublicKey()), priv.PublicKey().Bytes()
	} else {
		priv := ed25519.NewKeyFromSeed(d)
		sk, pubBytes = s.newKey(privateKey, priv, priv.Public()), priv.Public().(ed25519.PublicKey)
	}
	if !bytes.Equal(pubBytes, x) {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's \"x\" is not the public key of its \"d\"")
	}
	return sk, nil
}

// publicBytes and privateBytes are the raw 32-byte keys.
func publicBytes(pub any) []byte {
	if p, ok := pub.(*ecdh.PublicKey); ok {
		return p.Bytes()
	}
	return clone(pub.(ed25519.PublicKey))
}

func privateBytes(priv any) []byte {
	if p, ok := priv.(*ecdh.PrivateKey); ok {
		return p.Bytes()
	}
	return clone(priv.(ed25519.PrivateKey).Seed())
}

func (s okpScheme) exportKey(format string, k *key) ([]byte, *jwk, error) {
	if err := checkExportType(format, k); err != nil {
		return nil, nil, err
	}
	switch format {
	case "raw":
		return publicBytes(k.pub), nil, nil
	case "spki":
		return mustBytes(x509.MarshalPKIXPublicKey(k.pub))
	case "pkcs8":
		return mustBytes(x509.MarshalPKCS8PrivateKey(k.priv))
	case "jwk":
		j := &jwk{Kty: "OKP", Crv: s.crv(), X: enc(publicBytes(k.pub))}
		if s.name == "Ed25519" {
			j.Alg = "EdDSA"
		}
		if k.priv != nil {
			j.D = enc(privateBytes(k.priv))
		}
		return nil, j, nil
	}
	return nil, nil, unsupportedFormat(s.name, format)
}

func (s okpScheme) sign(_ *params, k *key, data []byte) ([]byte, error) {
	if s.x25519() {
		return nil, jsrt.Errorf(notSupported, "X25519 does not sign")
	}
	return ed25519.Sign(k.priv.(ed25519.PrivateKey), data), nil
}

// verify checks an Ed25519 signature; one that is not 64 bytes long is an
// OperationError, as in workerd.
func (s okpScheme) verify(_ *params, k *key, sig, data []byte) (bool, error) {
	if s.x25519() {
		return false, jsrt.Errorf(notSupported, "X25519 does not verify")
	}
	if len(sig) != ed25519.SignatureSize {
		return false, jsrt.Errorf(operationErr, "an Ed25519 signature is %d bytes long, not %d", ed25519.SignatureSize, len(sig))
	}
	return ed25519.Verify(k.pub.(ed25519.PublicKey), data, sig), nil
}

// deriveBits is X25519; an all-zero shared secret (a small-order public
// key) is an OperationError.
func (s okpScheme) deriveBits(_ *params, k, peer *key, length int) ([]byte, error) {
	if !s.x25519() {
		return nil, jsrt.Errorf(notSupported, "%s does not derive bits", s.name)
	}
	if err := checkPeer(k, peer); err != nil {
		return nil, err
	}
	secret, err := k.priv.(*ecdh.PrivateKey).ECDH(peer.pub.(*ecdh.PublicKey))
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "X25519: %v", err)
	}
	return truncateBits(secret, length)
}
