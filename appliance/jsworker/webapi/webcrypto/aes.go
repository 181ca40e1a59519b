package webcrypto

import (
	"crypto/aes"
	"crypto/rand"
	"fmt"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// aesScheme is one AES mode: GCM, CBC, CTR or KW (key wrap). Keys are
// 128, 192 or 256 bits.
type aesScheme struct {
	mode string
}

func (s aesScheme) name() string { return "AES-" + s.mode }

func validAESBits(bits int) bool { return bits == 128 || bits == 192 || bits == 256 }

func (s aesScheme) generate(p *params) (*key, *key, *key, error) {
	if !validAESBits(p.length) {
		return nil, nil, nil, jsrt.Errorf(operationErr, "an AES key must be 128, 192 or 256 bits long, not %d", p.length)
	}
	b := make([]byte, p.length/8)
	rand.Read(b)
	return &key{alg: s.name(), typ: secretKey, bits: p.length, secret: b}, nil, nil, nil
}

func (s aesScheme) importKey(format string, in keyData, _ *params) (*key, error) {
	var data []byte
	switch format {
	case "raw":
		data = in.bytes
	case "jwk":
		j := in.jwk
		if err := j.checkCommon("oct", "enc", in); err != nil {
			return nil, err
		}
		var err error
		if data, err = required("k", j.K); err != nil {
			return nil, err
		}
		if validAESBits(len(data) * 8) {
			if err := j.checkAlg(s.jwkAlg(len(data) * 8)); err != nil {
				return nil, err
			}
		}
	default:
		return nil, unsupportedFormat(s.name(), format)
	}
	if !validAESBits(len(data) * 8) {
		return nil, jsrt.Errorf(dataError, "an AES key must be 128, 192 or 256 bits long, not %d", len(data)*8)
	}
	return &key{alg: s.name(), typ: secretKey, bits: len(data) * 8, secret: clone(data)}, nil
}

// jwkAlg is the JWK "alg" of a key of this mode: A128GCM, A256KW, ….
func (s aesScheme) jwkAlg(bits int) string { return fmt.Sprintf("A%d%s", bits, s.mode) }

func (s aesScheme) exportKey(format string, k *key) ([]byte, *jwk, error) {
	switch format {
	case "raw":
		return clone(k.secret), nil, nil
	case "jwk":
		return nil, &jwk{Kty: "oct", K: enc(k.secret), Alg: s.jwkAlg(k.bits)}, nil
	}
	return nil, nil, unsupportedFormat(s.name(), format)
}

func (s aesScheme) encrypt(p *params, k *key, data []byte) ([]byte, error) {
	block, err := aes.NewCipher(k.secret)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "%s: %v", s.name(), err)
	}
	switch s.mode {
	case "GCM":
		return gcmSeal(block, p, data)
	case "CBC":
		return cbcEncrypt(block, p, data)
	case "CTR":
		return ctrXOR(block, p, data)
	}
	return keyWrap(block, data)
}

func (s aesScheme) decrypt(p *params, k *key, data []byte) ([]byte, error) {
	block, err := aes.NewCipher(k.secret)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "%s: %v", s.name(), err)
	}
	switch s.mode {
	case "GCM":
		return gcmOpen(block, p, data)
	case "CBC":
		return cbcDecrypt(block, p, data)
	case "CTR":
		return ctrXOR(block, p, data)
	}
	return keyUnwrap(block, data)
}
