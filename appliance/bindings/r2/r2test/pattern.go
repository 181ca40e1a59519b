package r2test

import (
	"encoding/binary"
	"io"
	"testing"
)

// pattern is an endless deterministic pseudo-random byte stream
// (xorshift64), so large bodies need not be held in memory to be checked.
type pattern struct {
	state uint64
	buf   [8]byte
	n     int // unread bytes at the end of buf
}

// patternReader returns the first n bytes of the stream for seed.
func patternReader(seed uint64, n int64) io.Reader {
	return io.LimitReader(&pattern{state: seed*0x9E3779B97F4A7C15 | 1}, n)
}

func (p *pattern) Read(b []byte) (int, error) {
	i := 0
	for ; p.n > 0 && i < len(b); i++ {
		b[i] = p.buf[8-p.n]
		p.n--
	}
	for ; len(b)-i >= 8; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], p.next())
	}
	if i < len(b) {
		binary.LittleEndian.PutUint64(p.buf[:], p.next())
		p.n = 8
		for ; i < len(b); i++ {
			b[i] = p.buf[8-p.n]
			p.n--
		}
	}
	return len(b), nil
}

func (p *pattern) next() uint64 {
	p.state ^= p.state << 13
	p.state ^= p.state >> 7
	p.state ^= p.state << 17
	return p.state
}

// readPattern returns n bytes of the stream for seed.
func readPattern(t *testing.T, seed uint64, n int64) []byte {
	t.Helper()
	b, err := io.ReadAll(patternReader(seed, n))
	if err != nil {
		t.Fatalf("pattern: %v", err)
	}
	return b
}
