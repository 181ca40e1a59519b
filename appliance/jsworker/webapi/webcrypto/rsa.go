package webcrypto

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"math"
	"math/big"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// minRSABits is the shortest RSA modulus Go generates or uses.
const minRSABits = 1024

// rsaScheme is RSASSA-PKCS1-v1_5, RSA-PSS or RSA-OAEP: key pairs bound to
// a hash, imported from spki, pkcs8 or jwk.
type rsaScheme struct {
	name string
}

// rsaJWKAlg is the JWK "alg" by algorithm and hash.
var rsaJWKAlg = map[string]map[string]string{
	"RSASSA-PKCS1-v1_5": {"SHA-1": "RS1", "SHA-256": "RS256", "SHA-384": "RS384", "SHA-512": "RS512"},
	"RSA-PSS":           {"SHA-1": "PS1", "SHA-256": "PS256", "SHA-384": "PS384", "SHA-512": "PS512"},
	"RSA-OAEP":          {"SHA-1": "RSA-OAEP", "SHA-256": "RSA-OAEP-256", "SHA-384": "RSA-OAEP-384", "SHA-512": "RSA-OAEP-512"},
}

func (s rsaScheme) use() string {
	if s.name == "RSA-OAEP" {
		return "enc"
	}
	return "sig"
}

func (s rsaScheme) checkGenerate(p *params) error {
	if _, err := hashOf(p.hash); err != nil {
		return err
	}
	if p.modulusLength%8 != 0 || p.modulusLength < 256 || p.modulusLength > 16384 {
		return jsrt.Errorf(operationErr, "the modulusLength must be a multiple of 8 between 256 and 16384, not %d", p.modulusLength)
	}
	e := new(big.Int).SetBytes(p.publicExponent)
	switch {
	case e.Cmp(big.NewInt(65537)) == 0:
	case e.Cmp(big.NewInt(3)) == 0:
		return jsrt.Errorf(notSupported, "dwk generates RSA keys with the publicExponent 65537 only, not 3")
	default:
		return jsrt.Errorf(operationErr, "the publicExponent must be 65537, not %v", e)
	}
	if p.modulusLength < minRSABits {
		return jsrt.Errorf(operationErr, "dwk does not generate RSA keys shorter than %d bits (asked for %d)", minRSABits, p.modulusLength)
	}
	return nil
}

func (s rsaScheme) generate(p *params) (*key, *key, *key, error) {
	if err := s.checkGenerate(p); err != nil {
		return nil, nil, nil, err
	}
	priv, err := rsa.GenerateKey(rand.Reader, p.modulusLength)
	if err != nil {
		return nil, nil, nil, jsrt.Errorf(operationErr, "generate an RSA key: %v", err)
	}
	pub, pk := s.newKeys(&priv.PublicKey, priv, p.hash)
	return nil, pub, pk, nil
}

// newKeys makes the public key, and the private key when priv is set.
func (s rsaScheme) newKeys(pub *rsa.PublicKey, priv *rsa.PrivateKey, hash string) (*key, *key) {
	pk := &key{alg: s.name, typ: publicKey, hash: hash}
	pk.setRSA(pub)
	if priv == nil {
		return pk, nil
	}
	sk := &key{alg: s.name, typ: privateKey, hash: hash, priv: priv}
	sk.setRSA(pub)
	return pk, sk
}

func (s rsaScheme) importKey(format string, in keyData, p *params) (*key, error) {
	if _, err := hashOf(p.hash); err != nil {
		return nil, err
	}
	var pub *rsa.PublicKey
	var priv *rsa.PrivateKey
	switch format {
	case "spki":
		k, err := x509.ParsePKIXPublicKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the spki key data is not valid: %v", err)
		}
		var ok bool
		if pub, ok = k.(*rsa.PublicKey); !ok {
			return nil, jsrt.Errorf(dataError, "the spki key data holds a %T, not an RSA key", k)
		}
	case "pkcs8":
		k, err := x509.ParsePKCS8PrivateKey(in.bytes)
		if err != nil {
			return nil, jsrt.Errorf(dataError, "the pkcs8 key data is not valid: %v", err)
		}
		var ok bool
		if priv, ok = k.(*rsa.PrivateKey); !ok {
			return nil, jsrt.Errorf(dataError, "the pkcs8 key data holds a %T, not an RSA key", k)
		}
		pub = &priv.PublicKey
	case "jwk":
		if err := in.jwk.checkCommon("RSA", s.use(), in); err != nil {
			return nil, err
		}
		if err := in.jwk.checkAlg(rsaJWKAlg[s.name][p.hash]); err != nil {
			return nil, err
		}
		var err error
		if pub, priv, err = rsaFromJWK(in.jwk); err != nil {
			return nil, err
		}
	default:
		return nil, unsupportedFormat(s.name, format)
	}
	pk, sk := s.newKeys(pub, priv, p.hash)
	if sk != nil {
		return sk, nil
	}
	return pk, nil
}

// rsaFromJWK reads an RSA key from a JWK: public, or private (with d) when
// priv is set.
func rsaFromJWK(j *jwk) (pub *rsa.PublicKey, priv *rsa.PrivateKey, err error) {
	var ints [8]*big.Int
	members := []struct{ name, value string }{{"n", j.N}, {"e", j.E}, {"d", j.D}, {"p", j.P}, {"q", j.Q}, {"dp", j.DP}, {"dq", j.DQ}, {"qi", j.QI}}
	if j.D == "" {
		members = members[:2]
	} else if len(j.Oth) > 0 && string(j.Oth) != "null" {
		return nil, nil, jsrt.Errorf(notSupported, "RSA keys with more than two primes (\"oth\") are not supported")
	}
	for i, m := range members {
		b, err := required(m.name, m.value)
		if err != nil {
			return nil, nil, err
		}
		ints[i] = new(big.Int).SetBytes(b)
	}
	e := ints[1]
	if !e.IsInt64() || e.Int64() < 3 || e.Int64() > math.MaxInt32 {
		return nil, nil, jsrt.Errorf(dataError, "the RSA public exponent %v is not supported", e)
	}
	pub = &rsa.PublicKey{N: ints[0], E: int(e.Int64())}
	if j.D == "" {
		return pub, nil, nil
	}
	priv = &rsa.PrivateKey{
		PublicKey:   *pub,
		D:           ints[2],
		Primes:      []*big.Int{ints[3], ints[4]},
		Precomputed: rsa.PrecomputedValues{Dp: ints[5], Dq: ints[6], Qinv: ints[7]},
	}
	priv.Precompute()
	if err := priv.Validate(); err != nil {
		return nil, nil, jsrt.Errorf(dataError, "the RSA private key is not valid: %v", err)
	}
	return &priv.PublicKey, priv, nil
}

func (s rsaScheme) exportKey(format string, k *key) ([]byte, *jwk, error) {
	if err := checkExportType(format, k); err != nil {
		return nil, nil, err
	}
	pub := k.pub.(*rsa.PublicKey)
	switch format {
	case "spki":
		b, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			return nil, nil, jsrt.Errorf(operationErr, "export the RSA key: %v", err)
		}
		return b, nil, nil
	case "pkcs8":
		b, err := x509.MarshalPKCS8PrivateKey(k.priv)
		if err != nil {
			return nil, nil, jsrt.Errorf(operationErr, "export the RSA key: %v", err)
		}
		return b, nil, nil
	case "jwk":
		j := &jwk{Kty: "RSA", N: enc(pub.N.Bytes()), E: enc(big.NewInt(int64(pub.E)).Bytes()), Alg: rsaJWKAlg[s.name][k.hash]}
		if priv, ok := k.priv.(*rsa.PrivateKey); ok {
			priv.Precompute()
			j.D = enc(priv.D.Bytes())
			j.P = enc(priv.Primes[0].Bytes())
			j.Q = enc(priv.Primes[1].Bytes())
			j.DP = enc(priv.Precomputed.Dp.Bytes())
			j.DQ = enc(priv.Precomputed.Dq.Bytes())
			j.QI = enc(priv.Precomputed.Qinv.Bytes())
		}
		return nil, j, nil
	}
	return nil, nil, unsupportedFormat(s.name, format)
}

// checkExportType fails for a format that does not hold the key's type:
// spki holds public keys, pkcs8 private keys, and raw no private keys.
func checkExportType(format string, k *key) error {
	switch {
	case format == "spki" && k.typ != publicKey,
		format == "pkcs8" && k.typ != privateKey,
		format == "raw" && k.typ == privateKey:
		return jsrt.Errorf(invalidAccess, "a %s key cannot be exported in the %q format", k.typ, format)
	}
	return nil
}
