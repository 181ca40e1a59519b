// Package walformat is SQLite's write-ahead log file format
// (https://www.sqlite.org/fileformat2.html#walformat): the 32-byte header,
// the frames after it (a 24-byte header and one page image each) and the
// running checksum that tells where the valid frames end. The libSQL
// server's backup (libsql/backup) and central mode's object replicas
// (objcentral/walpages) read WAL files through it.
package walformat

import (
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	// HeaderSize is the size of the WAL header.
	HeaderSize = 32
	// FrameHeaderSize is the size of a frame's header, before its page.
	FrameHeaderSize = 24

	magic = 0x377f0682 // with the low bit set (0x377f0683), checksum words are big-endian
)

var (
	// ErrNoHeader is returned for a header that is short or whose checksum
	// does not match (SQLite has not finished writing it): the log holds
	// nothing yet.
	ErrNoHeader = errors.New("walformat: no complete WAL header")
	// ErrCorrupt is returned for a header that is not SQLite's.
	ErrCorrupt = errors.New("walformat: not a SQLite WAL file")
)

// Sum is the running checksum: after the header, and after each frame.
type Sum struct{ S0, S1 uint32 }

// Header is a parsed WAL header.
type Header struct {
	// PageSize of the database, in bytes.
	PageSize uint32
	// Salt1 and Salt2 identify this generation of the log: SQLite changes
	// them each time it restarts the log from its beginning, and a frame
	// belongs to the log only when it carries them.
	Salt1, Salt2 uint32
	// BigEndian: the checksum reads big-endian words.
	BigEndian bool
	// Sum is the checksum over the header, which the first frame's
	// running checksum continues.
	Sum Sum
}

// ParseHeader parses the header at the start of b.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, ErrNoHeader
	}
	m := binary.BigEndian.Uint32(b[0:])
	if m&^1 != magic {
		return Header{}, fmt.Errorf("%w: magic %#x", ErrCorrupt, m)
	}
	h := Header{
		PageSize:  binary.BigEndian.Uint32(b[8:]),
		BigEndian: m&1 == 1,
	}
	h.Salt1, h.Salt2 = Salts(b)
	if h.PageSize == 1 {
		h.PageSize = 65536
	}
	if h.PageSize < 512 || h.PageSize > 65536 || h.PageSize&(h.PageSize-1) != 0 {
		return Header{}, fmt.Errorf("%w: page size %d", ErrCorrupt, h.PageSize)
	}
	h.Sum = h.checksum(Sum{}, b[:24])
	if h.Sum != (Sum{binary.BigEndian.Uint32(b[24:]), binary.BigEndian.Uint32(b[28:])}) {
		return Header{}, ErrNoHeader
	}
	return h, nil
}

// Salts are the salts of the header at the start of b (HeaderSize bytes),
// unchecked: enough to tell whether the log was restarted since it was
// last read.
func Salts(b []byte) (salt1, salt2 uint32) {
	return binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:])
}

// FrameSize is the size of one frame: its header and a page.
func (h Header) FrameSize() int { return FrameHeaderSize + int(h.PageSize) }

// Next checks frame (FrameSize bytes) against the log: it must carry the
// header's salts and the checksum that continues from sum, the one after
// the frame before it. It returns the checksum after frame; ok is false
// where the log's valid frames end.
func (h Header) Next(sum Sum, frame []byte) (next Sum, ok bool) {
	if len(frame) != h.FrameSize() || !h.Carries(frame) {
		return sum, false
	}
	next = h.checksum(sum, frame[:8])
	next = h.checksum(next, frame[FrameHeaderSize:])
	return next, next == FrameSum(frame)
}

// Carries reports whether the frame header carries the log's salts.
func (h Header) Carries(frame []byte) bool {
	return binary.BigEndian.Uint32(frame[8:]) == h.Salt1 && binary.BigEndian.Uint32(frame[12:]) == h.Salt2
}

// checksum continues SQLite's WAL checksum over b (a multiple of 8 bytes).
func (h Header) checksum(s Sum, b []byte) Sum {
	order := binary.ByteOrder(binary.LittleEndian)
	if h.BigEndian {
		order = binary.BigEndian
	}
	for i := 0; i+8 <= len(b); i += 8 {
		s.S0 += order.Uint32(b[i:]) + s.S1
		s.S1 += order.Uint32(b[i+4:]) + s.S0
	}
	return s
}

// PageNumber is the page a frame holds (1 is the database's first).
func PageNumber(frame []byte) uint32 { return binary.BigEndian.Uint32(frame[0:]) }

// CommitSize is the database's size in pages after a commit frame, and
// zero for a frame that does not end a transaction.
func CommitSize(frame []byte) uint32 { return binary.BigEndian.Uint32(frame[4:]) }

// FrameSum is the running checksum a frame's header records.
func FrameSum(frame []byte) Sum {
	return Sum{binary.BigEndian.Uint32(frame[16:]), binary.BigEndian.Uint32(frame[20:])}
}
