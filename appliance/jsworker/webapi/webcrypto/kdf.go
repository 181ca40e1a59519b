package webcrypto

import (
	"crypto/hkdf"
	"crypto/pbkdf2"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// MaxPBKDF2Iterations is the most iterations PBKDF2 runs, as on
// Cloudflare: more is a NotSupportedError.
const MaxPBKDF2Iterations = 100000

// kdfScheme is PBKDF2 or HKDF: secret keys imported raw, never
// extractable, that only derive.
type kdfScheme struct {
	name string
}

func (s kdfScheme) generate(*params) (*key, *key, *key, error) {
	return nil, nil, nil, jsrt.Errorf(notSupported, "%s keys cannot be generated; import them", s.name)
}

func (s kdfScheme) importKey(format string, in keyData, _ *params) (*key, error) {
	if format != "raw" {
		return nil, unsupportedFormat(s.name, format)
	}
	return &key{alg: s.name, typ: secretKey, secret: clone(in.bytes)}, nil
}

func (s kdfScheme) exportKey(format string, _ *key) ([]byte, *jwk, error) {
	return nil, nil, unsupportedFormat(s.name, format)
}

func (s kdfScheme) deriveBits(p *params, k, _ *key, length int) ([]byte, error) {
	if length < 0 {
		return nil, jsrt.Errorf(operationErr, "%s needs a length", s.name)
	}
	if length%8 != 0 {
		return nil, jsrt.Errorf(operationErr, "%s derives a multiple of 8 bits, not %d", s.name, length)
	}
	h, err := hashOf(p.hash)
	if err != nil {
		return nil, err
	}
	if length == 0 {
		return []byte{}, nil
	}
	var out []byte
	if s.name == "PBKDF2" {
		if p.iterations == 0 {
			return nil, jsrt.Errorf(operationErr, "PBKDF2 needs at least one iteration")
		}
		if p.iterations > MaxPBKDF2Iterations {
			return nil, jsrt.Errorf(notSupported, "PBKDF2 runs at most %d iterations (asked for %d)", MaxPBKDF2Iterations, p.iterations)
		}
		out, err = pbkdf2.Key(h.New, string(k.secret), p.salt, p.iterations, length/8)
	} else {
		out, err = hkdf.Key(h.New, k.secret, p.salt, string(p.info), length/8)
	}
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "%s: %v", s.name, err)
	}
	return out, nil
}
