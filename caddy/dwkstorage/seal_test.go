package dwkstorage

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func TestSealOpen(t *testing.T) {
	s, err := newSealer([]byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	name, value := []byte("name"), []byte("-----BEGIN EC PRIVATE KEY-----")
	mod := time.UnixMilli(1_700_000_000_123).UTC()
	sealed := s.seal(name, value, mod)
	if bytes.Contains(sealed, value) {
		t.Fatal("sealed value holds the plaintext")
	}
	if got := sealedSize(len(sealed)); got != int64(len(value)) {
		t.Errorf("sealedSize = %d, want %d", got, len(value))
	}
	got, gotMod, err := s.open(name, sealed)
	if err != nil || !bytes.Equal(got, value) || !gotMod.Equal(mod) {
		t.Fatalf("open = %q, %v, %v; want %q, %v", got, gotMod, err, value, mod)
	}
	if again := s.seal(name, value, mod); bytes.Equal(again, sealed) {
		t.Error("two seals of one value are equal: nonces repeat")
	}

	other, err := newSealer([]byte("another secret"))
	if err != nil {
		t.Fatal(err)
	}
	flipped := func(i int) []byte {
		b := bytes.Clone(sealed)
		b[i] ^= 1
		return b
	}
	for _, tc := range []struct {
		name   string
		s      *sealer
		key    []byte
		sealed []byte
		want   error
	}{
		{"other secret", other, name, sealed, ErrWrongSecret},
		{"other name", s, []byte("other"), sealed, ErrCorrupt},
		{"modified time changed", s, name, flipped(headerLen - 1), ErrCorrupt},
		{"ciphertext changed", s, name, flipped(len(sealed) - 1), ErrCorrupt},
		{"version", s, name, flipped(0), ErrCorrupt},
		{"truncated", s, name, sealed[:sealOverhead-1], ErrCorrupt},
		{"plaintext", s, name, bytes.Repeat([]byte("x"), 100), ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := tc.s.open(tc.key, tc.sealed); !errors.Is(err, tc.want) {
				t.Errorf("open = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := newSealer(nil); !errors.Is(err, ErrConfig) {
		t.Errorf("newSealer(nil) = %v, want ErrConfig", err)
	}
}
