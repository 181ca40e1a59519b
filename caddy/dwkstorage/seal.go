package dwkstorage

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"
)

// HKDF info strings. Changing either makes every stored value unreadable.
const (
	// KeyInfo derives the AES-256-GCM key from the secret.
	KeyInfo = "dwk caddy storage v1: AES-256-GCM key"
	// KeyIDInfo derives the key id stored with every value.
	KeyIDInfo = "dwk caddy storage v1: key id"
)

// Sealed value layout; see the package doc.
const (
	sealVersion  = 1
	keyIDLen     = 8
	headerLen    = 1 + keyIDLen + 8 // version, key id, modified
	nonceLen     = 12
	tagLen       = 16
	sealOverhead = headerLen + nonceLen + tagLen
)

// sealer seals and opens values under one secret.
type sealer struct {
	aead  cipher.AEAD
	keyID [keyIDLen]byte
}

func newSealer(secret []byte) (*sealer, error) {
	if len(secret) == 0 {
		return nil, fmt.Errorf("%w: secret is empty", ErrConfig)
	}
	key, err := hkdf.Key(sha256.New, secret, nil, KeyInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("derive storage key: %w", err)
	}
	id, err := hkdf.Key(sha256.New, secret, nil, KeyIDInfo, keyIDLen)
	if err != nil {
		return nil, fmt.Errorf("derive storage key id: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	s := &sealer{aead: aead}
	copy(s.keyID[:], id)
	return s, nil
}

// seal returns value sealed for the coordination key whose encoding is
// name, stamped with modified.
func (s *sealer) seal(name, value []byte, modified time.Time) []byte {
	out := make([]byte, headerLen+nonceLen, sealOverhead+len(value))
	out[0] = sealVersion
	copy(out[1:], s.keyID[:])
	binary.BigEndian.PutUint64(out[1+keyIDLen:], uint64(modified.UnixMilli()))
	nonce := out[headerLen : headerLen+nonceLen]
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand.Read does not fail
	}
	return s.aead.Seal(out, nonce, value, additional(out[:headerLen], name))
}

// open returns the value sealed for name and its modification time. It
// fails with ErrWrongSecret or ErrCorrupt.
func (s *sealer) open(name, sealed []byte) ([]byte, time.Time, error) {
	modified, err := s.header(sealed)
	if err != nil {
		return nil, time.Time{}, err
	}
	nonce := sealed[headerLen : headerLen+nonceLen]
	v, err := s.aead.Open(nil, nonce, sealed[headerLen+nonceLen:], additional(sealed[:headerLen], name))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: authentication failed", ErrCorrupt)
	}
	return v, modified, nil
}

// header checks the version and key id of a sealed value and returns its
// modification time, without opening it.
func (s *sealer) header(sealed []byte) (time.Time, error) {
	if len(sealed) < sealOverhead {
		return time.Time{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte envelope", ErrCorrupt, len(sealed), sealOverhead)
	}
	if sealed[0] != sealVersion {
		return time.Time{}, fmt.Errorf("%w: envelope version %d, want %d", ErrCorrupt, sealed[0], sealVersion)
	}
	if !bytes.Equal(sealed[1:1+keyIDLen], s.keyID[:]) {
		return time.Time{}, ErrWrongSecret
	}
	ms := int64(binary.BigEndian.Uint64(sealed[1+keyIDLen : headerLen]))
	return time.UnixMilli(ms).UTC(), nil
}

// sealedSize is the plaintext size of a sealed value of n bytes.
func sealedSize(n int) int64 { return int64(max(n-sealOverhead, 0)) }

func additional(header, name []byte) []byte {
	return append(append(make([]byte, 0, len(header)+len(name)), header...), name...)
}
