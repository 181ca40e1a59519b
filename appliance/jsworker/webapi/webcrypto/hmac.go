package webcrypto

import (
	"crypto/hmac"
	"crypto/rand"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// hmacScheme is HMAC: secret keys of any length bound to a hash.
type hmacScheme struct{}

// hmacJWKAlg is the JWK "alg" of an HMAC key by hash.
var hmacJWKAlg = map[string]string{"SHA-1": "HS1", "SHA-256": "HS256", "SHA-384": "HS384", "SHA-512": "HS512"}

func (hmacScheme) generate(p *params) (*key, *key, *key, error) {
	h, err := hashOf(p.hash)
	if err != nil {
		return nil, nil, nil, err
	}
	bits := p.length
	if bits < 0 {
		bits = h.New().BlockSize() * 8
	}
	if bits == 0 {
		return nil, nil, nil, jsrt.Errorf(operationErr, "an HMAC key cannot be 0 bits long")
	}
	b := make([]byte, (bits+7)/8)
	rand.Read(b)
	if r := bits % 8; r != 0 {
		b[len(b)-1] &= 0xff << (8 - r)
	}
	return &key{alg: "HMAC", typ: secretKey, hash: p.hash, bits: bits, secret: b}, nil, nil, nil
}

func (hmacScheme) importKey(format string, in keyData, p *params) (*key, error) {
	if _, err := hashOf(p.hash); err != nil {
		return nil, err
	}
	var data []byte
	switch format {
	case "raw":
		data = in.bytes
	case "jwk":
		j := in.jwk
		if err := j.checkCommon("oct", "sig", in); err != nil {
			return nil, err
		}
		var err error
		if data, err = required("k", j.K); err != nil {
			return nil, err
		}
		if err := j.checkAlg(hmacJWKAlg[p.hash]); err != nil {
			return nil, err
		}
	default:
		return nil, unsupportedFormat("HMAC", format)
	}
	if len(data) == 0 {
		return nil, jsrt.Errorf(dataError, "an HMAC key cannot be empty")
	}
	bits := len(data) * 8
	if p.length >= 0 {
		if p.length > bits || p.length <= bits-8 {
			return nil, jsrt.Errorf(dataError, "the HMAC length %d does not fit a key of %d bytes", p.length, len(data))
		}
		bits = p.length
	}
	return &key{alg: "HMAC", typ: secretKey, hash: p.hash, bits: bits, secret: clone(data)}, nil
}

func (hmacScheme) exportKey(format string, k *key) ([]byte, *jwk, error) {
	switch format {
	case "raw":
		return clone(k.secret), nil, nil
	case "jwk":
		return nil, &jwk{Kty: "oct", K: enc(k.secret), Alg: hmacJWKAlg[k.hash]}, nil
	}
	return nil, nil, unsupportedFormat("HMAC", format)
}

func (hmacScheme) sign(_ *params, k *key, data []byte) ([]byte, error) {
	h, err := hashOf(k.hash)
	if err != nil {
		return nil, err
	}
	m := hmac.New(h.New, k.secret)
	m.Write(data)
	return m.Sum(nil), nil
}

func (s hmacScheme) verify(p *params, k *key, sig, data []byte) (bool, error) {
	mac, err := s.sign(p, k, data)
	if err != nil {
		return false, err
	}
	return hmac.Equal(mac, sig), nil
}
