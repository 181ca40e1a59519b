package webcrypto

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// curves are the NIST curves ECDSA and ECDH use, by namedCurve.
var curves = map[string]elliptic.Curve{
	"P-256": elliptic.P256(),
	"P-384": elliptic.P384(),
	"P-521": elliptic.P521(),
}

// ecdsaJWKAlg is the JWK "alg" of an ECDSA key by curve.
var ecdsaJWKAlg = map[string]string{"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}

func curveOf(name string) (elliptic.Curve, error) {
	c, ok := curves[name]
	if !ok {
		return nil, jsrt.Errorf(notSupported, "unrecognized namedCurve %q (want P-256, P-384 or P-521)", name)
	}
	return c, nil
}

// coordSize is the length in bytes of one coordinate (and of a private
// scalar) on c.
func coordSize(c elliptic.Curve) int { return (c.Params().BitSize + 7) / 8 }

// ecScheme is ECDSA or ECDH on a NIST curve. Both keep *ecdsa keys; ECDH
// converts them to crypto/ecdh keys to derive.
type ecScheme struct {
	name string
}

func (s ecScheme) use() string {
	if s.name == "ECDH" {
		return "enc"
	}
	return "sig"
}

func (s ecScheme) generate(p *params) (*key, *key, *key, error) {
	c, err := curveOf(p.namedCurve)
	if err != nil {
		return nil, nil, nil, err
	}
	priv, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		return nil, nil, nil, jsrt.Errorf(operationErr, "generate an EC key: %v", err)
	}
	return nil, s.publicKey(&priv.PublicKey, p.namedCurve), s.privateKey(priv, p.namedCurve), nil
}

func (s ecScheme) publicKey(pub *ecdsa.PublicKey, curve string) *key {
	return &key{alg: s.name, typ: publicKey, curve: curve, pub: pub}
}

func (s ecScheme) privateKey(priv *ecdsa.PrivateKey, curve string) *key {
	return &key{alg: s.name, typ: privateKey, curve: curve, priv: priv, pub: &priv.PublicKey}
}

func (s ecScheme) importKey(format string, in keyData, p *params) (*key, error) {
	c, err := curveOf(p.namedCurve)
	if err != nil {
		return nil, err
	}
	switch format {
	case "raw":
		pub, err := parsePoint(c, in.bytes)
		if err != nil {
			return nil, err
		}
		return s.publicKey(pub, p.namedCurve), nil
	case "spki":
		k, err := x509.ParsePKIXPublicKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the spki key data is not valid: %v", err)
		}
		pub, ok := k.(*ecdsa.PublicKey)
		if !ok || pub.Curve != c {
			return nil, jsrt.Errorf(dataError, "the spki key data is not a %s key", p.namedCurve)
		}
		return s.publicKey(pub, p.namedCurve), nil
	case "pkcs8":
		k, err := x509.ParsePKCS8PrivateKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the pkcs8 key data is not valid: %v", err)
		}
		priv, ok := k.(*ecdsa.PrivateKey)
		if !ok || priv.Curve != c {
			return nil, jsrt.Errorf(dataError, "the pkcs8 key data is not a %s key", p.namedCurve)
		}
		return s.privateKey(priv, p.namedCurve), nil
	case "jwk":
		return s.importJWK(c, in, p)
	}
	return nil, unsupportedFormat(s.name, format)
}

func (s ecScheme) importJWK(c elliptic.Curve, in keyData, p *params) (*key, error) {
	j := in.jwk
	if err := j.checkCommon("EC", s.use(), in); err != nil {
		return nil, err
	}
	if j.Crv != p.namedCurve {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's \"crv\" %q is not the namedCurve %q", j.Crv, p.namedCurve)
	}
	if s.name == "ECDSA" {
		if err := j.checkAlg(ecdsaJWKAlg[p.namedCurve]); err != nil {
			return nil, err
		}
	}
	size := coordSize(c)
	point := []byte{4}
	for _, m := range []struct{ name, value string }{{"x", j.X}, {"y", j.Y}} {
		b, err := required(m.name, m.value)
		if err != nil {
			return nil, err
		}
		if len(b) != size {
			return nil, jsrt.Errorf(dataError, "the JSON Web Key's %q must be %d bytes long on %s, not %d", m.name, size, p.namedCurve, len(b))
		}
		point = append(point, b...)
	}
	pub, err := parsePoint(c, point)
	if err != nil {
		return nil, err
	}
	if j.D == "" {
		return s.publicKey(pub, p.namedCurve), nil
	}
	d, err := b64("d", j.D)
	if err != nil {
		return nil, err
	}
	priv, err := ecdsa.ParseRawPrivateKey(c, d)
	if err != nil {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's \"d\" is not a %s private key: %v", p.namedCurve, err)
	}
	if !priv.PublicKey.Equal(pub) {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's \"x\" and \"y\" are not the public key of its \"d\"")
	}
	return s.privateKey(priv, p.namedCurve), nil
}

// parsePoint reads a public key from a point in SEC 1 form, uncompressed
// (0x04 x y) or compressed (0x02 or 0x03, x).
func parsePoint(c elliptic.Curve, b []byte) (*ecdsa.PublicKey, error) {
	if size := coordSize(c); len(b) == 1+size && (b[0] == 2 || b[0] == 3) {
		x, y := elliptic.UnmarshalCompressed(c, b)
		if x == nil {
			return nil, jsrt.Errorf(dataError, "the compressed point is not on %s", c.Params().Name)
		}
		b = make([]byte, 1+2*size)
		b[0] = 4
		x.FillBytes(b[1 : 1+size])
		y.FillBytes(b[1+size:])
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(c, b)
	if err != nil {
		return nil, jsrt.Errorf(dataError, "the key data is not a point on %s: %v", c.Params().Name, err)
	}
	return pub, nil
}

func (s ecScheme) exportKey(format string, k *key) ([]byte, *jwk, error) {
	if err := checkExportType(format, k); err != nil {
		return nil, nil, err
	}
	pub := k.pub.(*ecdsa.PublicKey)
	switch format {
	case "raw":
		return mustBytes(pub.Bytes())
	case "spki":
		return mustBytes(x509.MarshalPKIXPublicKey(pub))
	case "pkcs8":
		return mustBytes(x509.MarshalPKCS8PrivateKey(k.priv))
	case "jwk":
		point, err := pub.Bytes()
		if err != nil {
			return nil, nil, jsrt.Errorf(operationErr, "export the EC key: %v", err)
		}
		size := coordSize(pub.Curve)
		j := &jwk{Kty: "EC", Crv: k.curve, X: enc(point[1 : 1+size]), Y: enc(point[1+size:])}
		if priv, ok := k.priv.(*ecdsa.PrivateKey); ok {
			d, err := priv.Bytes()
			if err != nil {
				return nil, nil, jsrt.Errorf(operationErr, "export the EC key: %v", err)
			}
			j.D = enc(d)
		}
		return nil, j, nil
	}
	return nil, nil, unsupportedFormat(s.name, format)
}

// mustBytes passes on what an encoder of a valid key returned, an error
// as an OperationError.
func mustBytes(b []byte, err error) ([]byte, *jwk, error) {
	if err != nil {
		return nil, nil, jsrt.Errorf(operationErr, "export the key: %v", err)
	}
	return b, nil, nil
}
