package r2central

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"os"
)

// memSpool is the largest body spool keeps in memory.
const memSpool = 8 << 20

// spooled is a body made ready to send: seekable, so the SDK can sign it
// and retry it from the start, with its size and hashes known.
type spooled struct {
	r      io.ReadSeeker // at the start of the body
	start  int64         // offset of the body's start in r
	size   int64
	md5    []byte
	sha256 []byte   // nil unless asked for
	file   *os.File // temporary file behind r, or nil
}

// spool reads body once, hashing it, and returns it seekable. A body that
// already is an io.ReadSeeker is used in place, from its current offset; any
// other is copied into memory, or into a temporary file in dir once it
// outgrows memSpool. The caller closes the result.
func spool(ctx context.Context, body io.Reader, dir string, wantSHA bool) (*spooled, error) {
	s := &spooled{}
	md5h := md5.New()
	hashes := []io.Writer{md5h}
	var shah hash.Hash
	if wantSHA {
		shah = sha256.New()
		hashes = append(hashes, shah)
	}
	hw := io.MultiWriter(hashes...)
	if rs, ok := body.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			n, err := io.Copy(hw, ctxReader{ctx, rs})
			if err != nil {
				return nil, fmt.Errorf("read body: %w", err)
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return nil, fmt.Errorf("rewind body: %w", err)
			}
			s.r, s.start, s.size = rs, start, n
			return s.finish(md5h, shah), nil
		}
	}
	var buf bytes.Buffer
	src := io.TeeReader(ctxReader{ctx, body}, hw)
	n, err := io.CopyN(&buf, src, memSpool+1)
	switch {
	case err == io.EOF:
		s.r, s.size = bytes.NewReader(buf.Bytes()), n
		return s.finish(md5h, shah), nil
	case err != nil:
		return nil, fmt.Errorf("read body: %w", err)
	}
	f, err := os.CreateTemp(dir, "r2central-spool-")
	if err != nil {
		return nil, fmt.Errorf("spool body: %w", err)
	}
	s.file = f
	if _, err := buf.WriteTo(f); err != nil {
		s.Close()
		return nil, fmt.Errorf("spool body: %w", err)
	}
	rest, err := io.Copy(f, src)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("spool body: %w", err)
	}
	s.r, s.size = io.NewSectionReader(f, 0, n+rest), n+rest
	return s.finish(md5h, shah), nil
}

// finish records the hashes.
func (s *spooled) finish(md5h, shah hash.Hash) *spooled {
	s.md5 = md5h.Sum(nil)
	if shah != nil {
		s.sha256 = shah.Sum(nil)
	}
	return s
}

// rewind puts the body back at its start, for another request.
func (s *spooled) rewind() error {
	if _, err := s.r.Seek(s.start, io.SeekStart); err != nil {
		return fmt.Errorf("rewind body: %w", err)
	}
	return nil
}

// Close removes the temporary file, if any.
func (s *spooled) Close() error {
	if s.file == nil {
		return nil
	}
	s.file.Close()
	return os.Remove(s.file.Name())
}

// ctxReader stops reading once ctx is done, so a cancelled Put does not
// drain a slow body to the end.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
