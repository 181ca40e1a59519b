package libsql

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// ParseJWTKeys parses Ed25519 public keys the way sqld does: either PEM
// ("-----BEGIN PUBLIC KEY-----" blocks, several allowed) or one raw 32-byte
// key in base64url (padding and the standard alphabet are also accepted).
func ParseJWTKeys(data string) ([]ed25519.PublicKey, error) {
	data = strings.TrimSpace(data)
	if data == "" {
		return nil, errors.New("no key found: the key data is empty")
	}
	if strings.HasPrefix(data, "-----BEGIN") {
		return parsePEMKeys([]byte(data))
	}
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.StdEncoding} {
		raw, err := enc.DecodeString(data)
		if err != nil {
			continue
		}
		if len(raw) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("could not decode Ed25519 public key from base64: got %d bytes, want %d", len(raw), ed25519.PublicKeySize)
		}
		return []ed25519.PublicKey{ed25519.PublicKey(raw)}, nil
	}
	return nil, errors.New("could not decode Ed25519 public key: neither PEM nor base64url")
}

func parsePEMKeys(data []byte) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		switch block.Type {
		case "PUBLIC KEY":
			pub, err := x509.ParsePKIXPublicKey(block.Bytes)
			if err != nil {
				return nil, fmt.Errorf("could not decode Ed25519 public key from PEM: %w", err)
			}
			key, ok := pub.(ed25519.PublicKey)
			if !ok {
				return nil, fmt.Errorf("PEM public key is a %T, want an Ed25519 key", pub)
			}
			keys = append(keys, key)
		case "PRIVATE KEY":
			return nil, errors.New("received a private key, but a public key is expected")
		default:
			return nil, fmt.Errorf("key is in unsupported PEM format %q", block.Type)
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("no PEM block found in the key data")
	}
	return keys, nil
}
