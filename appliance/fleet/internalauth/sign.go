package internalauth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
)

// Sign returns a copy of r signed for the receiver: the Dwk-Mac header;
// for a body of declared length up to MaxSignedBody, its SHA-256 in the
// header (the body is read into memory); for a larger body or one of
// unknown length, a body that adds the Dwk-Body-Mac trailer as it is read
// to the end (sent chunked; its declared length travels in the signature
// and the receiver restores it). r's body is consumed; r is not modified
// otherwise.
func (a *Auth) Sign(r *http.Request) (*http.Request, error) {
	var raw [16]byte
	if _, err := io.ReadFull(a.rand, raw[:]); err != nil {
		return nil, fmt.Errorf("internalauth: nonce: %w", err)
	}
	out := r.Clone(r.Context())
	s := sig{t: a.now().UnixMilli(), nonce: hex.EncodeToString(raw[:]), len: 0}
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength > 0 && r.ContentLength <= MaxSignedBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, r.ContentLength+1))
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("internalauth: read the body to sign: %w", err)
		}
		if int64(len(b)) != r.ContentLength {
			return nil, fmt.Errorf("internalauth: body is %d bytes, declared %d", len(b), r.ContentLength)
		}
		sum := sha256.Sum256(b)
		s.len, s.body = r.ContentLength, sum[:]
		out.Body = io.NopCloser(bytes.NewReader(b))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	} else if r.Body != nil && r.Body != http.NoBody {
		s.len = r.ContentLength
		if s.len == 0 {
			s.len = -1 // a non-nil body of unknown length
		}
		tr := make(http.Header, len(r.Trailer)+1)
		for k, v := range r.Trailer {
			tr[k] = v
		}
		tr[BodyTrailer] = nil
		out.Trailer = tr
		out.ContentLength = -1
		out.Header.Del("Content-Length")
		out.Body = &signedBody{rc: r.Body, mac: a.bodyMAC(s.nonce), trailer: tr}
		out.GetBody = nil
	}
	s.mac = a.headMAC(out.Method, out.URL.RequestURI(), s)
	out.Header.Set(Header, s.header())
	return out, nil
}

// signedBody hashes the body as it is sent and sets the trailer at its end.
type signedBody struct {
	rc      io.ReadCloser
	mac     hashWriter
	trailer http.Header
}

func (b *signedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mac.Write(p[:n])
	if err == io.EOF {
		b.trailer.Set(BodyTrailer, hex.EncodeToString(b.mac.Sum(nil)))
	}
	return n, err
}

func (b *signedBody) Close() error { return b.rc.Close() }
