package webcrypto

import "github.com/dwk/fleet/appliance/jsworker/jsrt"

// scheme is the Go side of one key algorithm: how its keys are made,
// imported and exported. The prelude has already normalized the algorithm,
// checked the usages and the format against the algorithm, and checked the
// key's algorithm and usages before an operation.
type scheme interface {
	// generate makes a new key: a secret key as secret, or a key pair as
	// public and private.
	generate(p *params) (secret, public, private *key, err error)
	// importKey makes a key from in, in the format named (raw, pkcs8, spki,
	// jwk) with the usages asked for (a JWK's use, key_ops and ext are
	// checked against them).
	importKey(format string, in keyData, p *params) (*key, error)
	// exportKey returns the key's bytes (raw, pkcs8, spki) or its JWK.
	exportKey(format string, k *key) ([]byte, *jwk, error)
}

// keyData is what importKey gets: bytes, or for the jwk format a parsed
// JSON Web Key, with the import's extractable flag and usages.
type keyData struct {
	bytes       []byte
	jwk         *jwk
	extractable bool
	usages      []string
}

// signer is a scheme that signs (HMAC, ECDSA, Ed25519, RSASSA, RSA-PSS).
type signer interface {
	sign(p *params, k *key, data []byte) ([]byte, error)
	verify(p *params, k *key, sig, data []byte) (bool, error)
}

// encrypter is a scheme that encrypts (AES, RSA-OAEP; AES-KW wraps).
type encrypter interface {
	encrypt(p *params, k *key, data []byte) ([]byte, error)
	decrypt(p *params, k *key, data []byte) ([]byte, error)
}

// deriver is a scheme that derives bits (PBKDF2, HKDF, ECDH, X25519).
// peer is the other party's public key for ECDH and X25519; length is the
// number of bits asked for, or -1 for null.
type deriver interface {
	deriveBits(p *params, k, peer *key, length int) ([]byte, error)
}

// slowGenerator is a scheme whose generate takes long enough (RSA: tens of
// milliseconds to seconds) to run off the loop. checkGenerate validates the
// parameters on the loop first.
type slowGenerator interface {
	checkGenerate(p *params) error
}

// schemes maps the normalized algorithm names to their schemes.
var schemes = map[string]scheme{
	"HMAC":              hmacScheme{},
	"AES-GCM":           aesScheme{mode: "GCM"},
	"AES-CBC":           aesScheme{mode: "CBC"},
	"AES-CTR":           aesScheme{mode: "CTR"},
	"AES-KW":            aesScheme{mode: "KW"},
	"PBKDF2":            kdfScheme{name: "PBKDF2"},
	"HKDF":              kdfScheme{name: "HKDF"},
	"RSASSA-PKCS1-v1_5": rsaScheme{name: "RSASSA-PKCS1-v1_5"},
	"RSA-PSS":           rsaScheme{name: "RSA-PSS"},
	"RSA-OAEP":          rsaScheme{name: "RSA-OAEP"},
	"ECDSA":             ecScheme{name: "ECDSA"},
	"ECDH":              ecScheme{name: "ECDH"},
	"Ed25519":           okpScheme{name: "Ed25519"},
	"NODE-ED25519":      okpScheme{name: "NODE-ED25519"},
	"X25519":            okpScheme{name: "X25519"},
}

func schemeOf(name string) (scheme, error) {
	s, ok := schemes[name]
	if !ok {
		return nil, jsrt.Errorf(notSupported, "unrecognized algorithm %q", name)
	}
	return s, nil
}

// unsupportedFormat is the error for a format an algorithm does not
// import or export.
func unsupportedFormat(alg, format string) error {
	return jsrt.Errorf(notSupported, "%s keys cannot be imported or exported in the %q format", alg, format)
}
