package internalauth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Header names of a signed request.
const (
	// Header carries the request's signature.
	Header = "Dwk-Mac"
	// BodyTrailer carries the MAC of a request body.
	BodyTrailer = "Dwk-Body-Mac"
)

// version is the signature format; bump it (and the label) to change the
// format or to rotate every fleet's key with a new binary.
const (
	version = "v2"
	label   = "dwk internal mac v2"
)

// Defaults of Options.
const (
	// DefaultWindow is how far a request's timestamp may be from the
	// receiver's clock.
	DefaultWindow = 30 * time.Second
	// DefaultMaxNonces bounds the nonces remembered for replay detection
	// (about 100 bytes each).
	DefaultMaxNonces = 1 << 20
	// MaxSignedBody is the largest body of declared length whose hash is
	// signed in the header: the sender reads it into memory, and the
	// receiver reads and checks it before the handler runs. Larger bodies
	// and bodies of unknown length stream, checked by their trailer.
	MaxSignedBody = 64 << 10
)

// Errors of the package. Verify wraps one of them with the details.
var (
	// ErrNoSecret: the fleet secret is empty, so no key can be derived.
	ErrNoSecret = errors.New("internalauth: fleet secret is empty")
	// ErrMissing: the request carries no Dwk-Mac header.
	ErrMissing = errors.New("internalauth: missing signature")
	// ErrMalformed: the Dwk-Mac header cannot be parsed.
	ErrMalformed = errors.New("internalauth: malformed signature")
	// ErrBadMAC: the MAC does not match (another fleet secret, or the
	// request was altered).
	ErrBadMAC = errors.New("internalauth: bad MAC")
	// ErrExpired: the timestamp is outside the replay window.
	ErrExpired = errors.New("internalauth: timestamp outside the replay window")
	// ErrReplayed: the nonce was seen within the window.
	ErrReplayed = errors.New("internalauth: replayed nonce")
	// ErrBusy: the nonce memory is full; the request may be retried.
	ErrBusy = errors.New("internalauth: too many requests in the replay window")
	// ErrBody: the body does not match its signature (the trailer is
	// missing or wrong, or the length differs from the signed one).
	ErrBody = errors.New("internalauth: request body does not match its signature")
)

// Options tune an Auth. The zero value takes the defaults.
type Options struct {
	// Window is how far a timestamp may be from the receiver's clock, in
	// either direction. Default: DefaultWindow.
	Window time.Duration
	// MaxNonces bounds the remembered nonces. Default: DefaultMaxNonces.
	MaxNonces int
	// Now is the clock. Default: time.Now.
	Now func() time.Time
	// Rand is the nonce source. Default: crypto/rand.Reader.
	Rand io.Reader
}

// Auth signs outgoing and verifies incoming internal requests of one
// fleet. It is safe for concurrent use. Its String method never prints
// the key.
type Auth struct {
	key    []byte
	window time.Duration
	now    func() time.Time
	rand   io.Reader
	nonces *nonces
}

// New derives the key from the fleet secret. It fails only for an empty
// secret.
func New(secret []byte, o Options) (*Auth, error) {
	if len(secret) == 0 {
		return nil, ErrNoSecret
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.MaxNonces <= 0 {
		o.MaxNonces = DefaultMaxNonces
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(label))
	return &Auth{key: h.Sum(nil), window: o.Window, now: o.Now, rand: o.Rand, nonces: newNonces(2*o.Window, o.MaxNonces)}, nil
}

// String hides the key, so logging an Auth or a struct holding one is safe.
func (a *Auth) String() string { return "internalauth.Auth(redacted)" }

// GoString hides the key from %#v as well.
func (a *Auth) GoString() string { return a.String() }

// sig is a parsed Dwk-Mac header.
type sig struct {
	t     int64
	nonce string
	len   int64
	body  []byte // SHA-256 of a small body signed in the header; nil: none or trailer
	mac   []byte
}

func (s sig) header() string {
	h := fmt.Sprintf("%s t=%d n=%s l=%d", version, s.t, s.nonce, s.len)
	if s.body != nil {
		h += " h=" + hex.EncodeToString(s.body)
	}
	return h + " m=" + hex.EncodeToString(s.mac)
}

func parseSig(h string) (sig, error) {
	f := strings.Fields(h)
	if (len(f) != 5 && len(f) != 6) || f[0] != version {
		return sig{}, fmt.Errorf("%w: want %q, got %q", ErrMalformed, version+" t=… n=… l=… [h=…] m=…", h)
	}
	var s sig
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "t":
			s.t, err = strconv.ParseInt(v, 10, 64)
		case "n":
			if len(v) != 32 {
				err = errors.New("nonce is not 32 hex digits")
			}
			_, herr := hex.DecodeString(v)
			err = errors.Join(err, herr)
			s.nonce = v
		case "l":
			s.len, err = strconv.ParseInt(v, 10, 64)
			if err == nil && s.len < -1 {
				err = errors.New("negative length")
			}
		case "h":
			s.body, err = hex.DecodeString(v)
			if err == nil && len(s.body) != sha256.Size {
				err = fmt.Errorf("body hash is not %d bytes", sha256.Size)
			}
		case "m":
			s.mac, err = hex.DecodeString(v)
			if err == nil && len(s.mac) != sha256.Size {
				err = fmt.Errorf("MAC is not %d bytes", sha256.Size)
			}
		default:
			err = fmt.Errorf("unknown field %q", k)
		}
		if err != nil {
			return sig{}, fmt.Errorf("%w: field %s: %v", ErrMalformed, k, err)
		}
	}
	if s.body != nil && (s.len <= 0 || s.len > MaxSignedBody) {
		return sig{}, fmt.Errorf("%w: h= with l=%d (want 1–%d)", ErrMalformed, s.len, MaxSignedBody)
	}
	if s.nonce == "" || s.mac == nil {
		return sig{}, fmt.Errorf("%w: %q lacks n= or m=", ErrMalformed, h)
	}
	return s, nil
}

// headMAC is the MAC over everything but the body.
func (a *Auth) headMAC(method, uri string, s sig) []byte {
	h := hmac.New(sha256.New, a.key)
	fmt.Fprintf(h, "%s\n%s\n%s\n%d\n%s\n%d\n%x", version, method, uri, s.t, s.nonce, s.len, s.body)
	return h.Sum(nil)
}

// bodyMAC starts the MAC of a body signed with nonce.
func (a *Auth) bodyMAC(nonce string) hashWriter {
	h := hmac.New(sha256.New, a.key)
	fmt.Fprintf(h, "%s body\n%s\n", version, nonce)
	return h
}

type hashWriter interface {
	io.Writer
	Sum([]byte) []byte
}
