package internalauth

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Verify checks r's signature and remembers its nonce. It returns the
// request handlers should see: the signature removed, and a body that
// fails with ErrBody at its end unless it matches the signed one (with its
// declared length restored). The error wraps ErrMissing, ErrMalformed,
// ErrBadMAC, ErrExpired, ErrReplayed, ErrBusy or ErrBody.
func (a *Auth) Verify(r *http.Request) (*http.Request, error) {
	h := r.Header.Get(Header)
	if h == "" {
		return nil, ErrMissing
	}
	s, err := parseSig(h)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(s.mac, a.headMAC(r.Method, r.RequestURI, s)) {
		return nil, ErrBadMAC
	}
	now := a.now()
	t := time.UnixMilli(s.t)
	if d := now.Sub(t); d > a.window || d < -a.window {
		return nil, fmt.Errorf("%w: signed at %s, this replica's clock says %s (window ±%s; check the clocks)",
			ErrExpired, t.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano), a.window)
	}
	if s.len == 0 && r.ContentLength != 0 {
		return nil, fmt.Errorf("%w: signed without a body, sent with one", ErrBody)
	}
	if err := a.nonces.add(s.nonce, now); err != nil {
		return nil, err
	}
	out := r.Clone(r.Context())
	out.Header.Del(Header)
	out.Header.Del("Trailer")
	out.Trailer = nil
	switch {
	case s.body != nil:
		// Small: read and checked before the handler runs.
		b, err := io.ReadAll(io.LimitReader(r.Body, s.len+1))
		if err != nil {
			return nil, fmt.Errorf("%w: read: %v", ErrBody, err)
		}
		if sum := sha256.Sum256(b); int64(len(b)) != s.len || !hmac.Equal(sum[:], s.body) {
			return nil, fmt.Errorf("%w: %d bytes arrived, not the signed %d bytes", ErrBody, len(b), s.len)
		}
		out.ContentLength = s.len
		out.Body = io.NopCloser(bytes.NewReader(b))
	case s.len != 0:
		out.ContentLength = s.len
		out.Body = &verifiedBody{rc: r.Body, r: r, want: s.len, mac: a.bodyMAC(s.nonce)}
	}
	return out, nil
}

// verifiedBody checks the body against its trailer at the end.
type verifiedBody struct {
	rc   io.ReadCloser
	r    *http.Request // holds the trailer once the body is read
	want int64         // -1: unknown
	n    int64
	mac  hashWriter
	err  error
}

func (b *verifiedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	b.mac.Write(p[:n])
	b.n += int64(n)
	if b.want >= 0 && b.n > b.want {
		b.err = fmt.Errorf("%w: longer than the signed %d bytes", ErrBody, b.want)
		return 0, b.err
	}
	if err == io.EOF {
		tr := b.r.Trailer.Get(BodyTrailer)
		got, _ := hex.DecodeString(tr)
		switch {
		case b.want >= 0 && b.n != b.want:
			b.err = fmt.Errorf("%w: %d bytes, signed %d", ErrBody, b.n, b.want)
		case tr == "":
			b.err = fmt.Errorf("%w: no %s trailer", ErrBody, BodyTrailer)
		case !hmac.Equal(got, b.mac.Sum(nil)):
			b.err = fmt.Errorf("%w: %s does not match", ErrBody, BodyTrailer)
		}
		if b.err != nil {
			return n, b.err
		}
	}
	return n, err
}

func (b *verifiedBody) Close() error { return b.rc.Close() }
