package workersecrets

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// HKDF info strings. Changing either makes every stored secret unreadable.
const (
	keyInfo   = "dwk worker secrets v1: AES-256-GCM key"
	keyIDInfo = "dwk worker secrets v1: key id"
)

// Sealed value layout; see the package doc.
const (
	sealVersion  = 1
	keyIDLen     = 8
	headerLen    = 1 + keyIDLen
	nonceLen     = 12
	tagLen       = 16
	sealOverhead = headerLen + nonceLen + tagLen
)

// Errors of a sealed value that does not open.
var (
	// ErrWrongSecret: the value was sealed under another fleet.secret
	// (or fleet name).
	ErrWrongSecret = errors.New("sealed under another fleet.secret: put the secret again")
	// ErrCorrupt: the value is damaged, or was moved to another worker or
	// name.
	ErrCorrupt = errors.New("sealed value is damaged")
)

// sealer seals and opens the secrets of one fleet.
type sealer struct {
	aead  cipher.AEAD
	keyID [keyIDLen]byte
	fleet string
}

func newSealer(secret []byte, fleet string) (*sealer, error) {
	if len(secret) == 0 {
		return nil, errors.New("workersecrets: fleet.secret is empty")
	}
	if fleet == "" {
		return nil, errors.New("workersecrets: the fleet name is empty")
	}
	key, err := hkdf.Key(sha256.New, secret, []byte(fleet), keyInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("derive the secrets key: %w", err)
	}
	id, err := hkdf.Key(sha256.New, secret, []byte(fleet), keyIDInfo, keyIDLen)
	if err != nil {
		return nil, fmt.Errorf("derive the secrets key id: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	s := &sealer{aead: aead, fleet: fleet}
	copy(s.keyID[:], id)
	return s, nil
}

// seal returns value sealed for the secret name of worker.
func (s *sealer) seal(worker, name string, value []byte) []byte {
	out := make([]byte, headerLen+nonceLen, sealOverhead+len(value))
	out[0] = sealVersion
	copy(out[1:], s.keyID[:])
	nonce := out[headerLen : headerLen+nonceLen]
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand.Read does not fail
	}
	return s.aead.Seal(out, nonce, value, s.additional(out[:headerLen], worker, name))
}

// open returns the value sealed for the secret name of worker. It fails
// with ErrWrongSecret or ErrCorrupt.
func (s *sealer) open(worker, name string, sealed []byte) ([]byte, error) {
	switch {
	case len(sealed) < sealOverhead:
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte envelope", ErrCorrupt, len(sealed), sealOverhead)
	case sealed[0] != sealVersion:
		return nil, fmt.Errorf("%w: envelope version %d, want %d", ErrCorrupt, sealed[0], sealVersion)
	case !bytes.Equal(sealed[1:headerLen], s.keyID[:]):
		return nil, ErrWrongSecret
	}
	nonce := sealed[headerLen : headerLen+nonceLen]
	v, err := s.aead.Open(nil, nonce, sealed[headerLen+nonceLen:], s.additional(sealed[:headerLen], worker, name))
	if err != nil {
		return nil, fmt.Errorf("%w: authentication failed", ErrCorrupt)
	}
	return v, nil
}

// additional is the data authenticated with a value: its header and the
// tuple encoding of (fleet, worker, name), which cannot be confused for
// another triple.
func (s *sealer) additional(header []byte, worker, name string) []byte {
	return tuple.MustEncode(tuple.Key{header, s.fleet, worker, name})
}
