package internalauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Scheme is the Authorization scheme of internal calls.
const Scheme = "Dwk-Internal"

// label is the HMAC message the key is derived with; bump the version to
// rotate every fleet's key with a new binary.
const label = "dwk internal v1"

// Errors of the package.
var (
	// ErrNoSecret: the fleet secret is empty, so no key can be derived.
	ErrNoSecret = errors.New("internalauth: fleet secret is empty")
	// ErrMissing: a request carries no "Authorization: Dwk-Internal" header.
	ErrMissing = errors.New("internalauth: missing internal credentials")
	// ErrInvalid: a request carries a Dwk-Internal credential that is not
	// the fleet's key.
	ErrInvalid = errors.New("internalauth: invalid internal credentials")
)

// Key is the fleet's internal-call key. The zero Key is invalid: Verify
// refuses everything and Transport sends nothing useful. Its String method
// never prints the key.
type Key struct {
	mac [sha256.Size]byte
	ok  bool
}

// New derives the key from the fleet secret. It fails only for an empty
// secret.
func New(secret []byte) (Key, error) {
	if len(secret) == 0 {
		return Key{}, ErrNoSecret
	}
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(label))
	var k Key
	copy(k.mac[:], h.Sum(nil))
	k.ok = true
	return k, nil
}

// String hides the key, so logging a Key or a struct holding one is safe.
func (k Key) String() string { return "internalauth.Key(redacted)" }

// GoString hides the key from %#v as well.
func (k Key) GoString() string { return k.String() }

// HeaderValue is the Authorization header value an internal call carries.
func (k Key) HeaderValue() string { return Scheme + " " + hex.EncodeToString(k.mac[:]) }

// Verify checks r's Authorization header. It returns nil for the fleet's
// key and an error wrapping ErrMissing or ErrInvalid otherwise. The key is
// compared in constant time.
func (k Key) Verify(r *http.Request) error {
	h := r.Header.Get("Authorization")
	scheme, cred, found := strings.Cut(h, " ")
	if h == "" || !found || !strings.EqualFold(scheme, Scheme) {
		return ErrMissing
	}
	got, err := hex.DecodeString(strings.TrimSpace(cred))
	if err != nil || len(got) != len(k.mac) {
		return fmt.Errorf("%w: credential is not %d hex-encoded bytes", ErrInvalid, len(k.mac))
	}
	if !k.ok || subtle.ConstantTimeCompare(got, k.mac[:]) != 1 {
		return ErrInvalid
	}
	return nil
}
