package internalauth

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
)

// Sign returns a copy of r signed for the receiver: the Dwk-Mac header,
// and for a request with a body, a body that adds the Dwk-Body-Mac
// trailer as it is read to the end. A body is therefore sent chunked; its
// declared length travels in the signature and the receiver restores it.
// r itself is not modified.
func (a *Auth) Sign(r *http.Request) (*http.Request, error) {
	var raw [16]byte
	if _, err := io.ReadFull(a.rand, raw[:]); err != nil {
		return nil, fmt.Errorf("internalauth: nonce: %w", err)
	}
	out := r.Clone(r.Context())
	s := sig{t: a.now().UnixMilli(), nonce: hex.EncodeToString(raw[:]), len: 0}
	if r.Body != nil && r.Body != http.NoBody {
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
