package webcrypto

import (
	"crypto/rand"
	"crypto/rsa"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

func checkRSASize(k *key) error {
	if k.rsaN < minRSABits {
		return jsrt.Errorf(operationErr, "dwk does not use RSA keys shorter than %d bits (this one has %d)", minRSABits, k.rsaN)
	}
	return nil
}

func (s rsaScheme) sign(p *params, k *key, data []byte) ([]byte, error) {
	h, err := hashOf(k.hash)
	if err != nil {
		return nil, err
	}
	if err := checkRSASize(k); err != nil {
		return nil, err
	}
	priv := k.priv.(*rsa.PrivateKey)
	d := h.New()
	d.Write(data)
	var sig []byte
	switch s.name {
	case "RSASSA-PKCS1-v1_5":
		sig, err = rsa.SignPKCS1v15(nil, priv, h, d.Sum(nil))
	case "RSA-PSS":
		if p.saltLength == 0 {
			return nil, jsrt.Errorf(notSupported, "dwk cannot sign RSA-PSS with a saltLength of 0")
		}
		sig, err = rsa.SignPSS(rand.Reader, priv, h, d.Sum(nil), &rsa.PSSOptions{SaltLength: p.saltLength})
	default:
		return nil, jsrt.Errorf(notSupported, "%s does not sign", s.name)
	}
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "%s: %v", s.name, err)
	}
	return sig, nil
}

func (s rsaScheme) verify(p *params, k *key, sig, data []byte) (bool, error) {
	h, err := hashOf(k.hash)
	if err != nil {
		return false, err
	}
	if err := checkRSASize(k); err != nil {
		return false, err
	}
	pub := k.pub.(*rsa.PublicKey)
	d := h.New()
	d.Write(data)
	switch s.name {
	case "RSASSA-PKCS1-v1_5":
		err = rsa.VerifyPKCS1v15(pub, h, d.Sum(nil), sig)
	case "RSA-PSS":
		// SaltLength 0 is Go's "any length": see the package's Differences.
		err = rsa.VerifyPSS(pub, h, d.Sum(nil), sig, &rsa.PSSOptions{SaltLength: p.saltLength})
	default:
		return false, jsrt.Errorf(notSupported, "%s does not verify", s.name)
	}
	return err == nil, nil
}

func (s rsaScheme) encrypt(p *params, k *key, data []byte) ([]byte, error) {
	if s.name != "RSA-OAEP" {
		return nil, jsrt.Errorf(notSupported, "%s does not encrypt", s.name)
	}
	h, err := hashOf(k.hash)
	if err != nil {
		return nil, err
	}
	if err := checkRSASize(k); err != nil {
		return nil, err
	}
	out, err := rsa.EncryptOAEP(h.New(), rand.Reader, k.pub.(*rsa.PublicKey), data, p.label)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "RSA-OAEP: %v", err)
	}
	return out, nil
}

func (s rsaScheme) decrypt(p *params, k *key, data []byte) ([]byte, error) {
	if s.name != "RSA-OAEP" {
		return nil, jsrt.Errorf(notSupported, "%s does not decrypt", s.name)
	}
	h, err := hashOf(k.hash)
	if err != nil {
		return nil, err
	}
	if err := checkRSASize(k); err != nil {
		return nil, err
	}
	out, err := rsa.DecryptOAEP(h.New(), nil, k.priv.(*rsa.PrivateKey), data, p.label)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "RSA-OAEP: %v", err)
	}
	return out, nil
}
