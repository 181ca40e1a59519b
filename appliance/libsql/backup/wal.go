package backup

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// SQLite's WAL file format (https://sqlite.org/fileformat2.html#walformat).
const (
	walHeaderSize   = 32
	frameHeaderSize = 24
	walMagic        = 0x377f0682 // with the low bit set (0x377f0683), the checksums are big-endian
)

// walHeader is the part of a WAL file header the backup uses.
type walHeader struct {
	bigEndian    bool // checksum words are big-endian
	pageSize     uint32
	salt1, salt2 uint32
	ck1, ck2     uint32
}

// parseWALHeader reads a WAL header; ok is false when b is not a valid one
// (SQLite then treats the WAL as empty).
func parseWALHeader(b []byte) (h walHeader, ok bool) {
	if len(b) < walHeaderSize {
		return h, false
	}
	magic := binary.BigEndian.Uint32(b[0:])
	if magic&^1 != walMagic {
		return h, false
	}
	h.bigEndian = magic&1 == 1
	h.pageSize = binary.BigEndian.Uint32(b[8:])
	if h.pageSize == 1 {
		h.pageSize = 65536
	}
	h.salt1 = binary.BigEndian.Uint32(b[16:])
	h.salt2 = binary.BigEndian.Uint32(b[20:])
	h.ck1 = binary.BigEndian.Uint32(b[24:])
	h.ck2 = binary.BigEndian.Uint32(b[28:])
	if s1, s2 := walChecksum(h.bigEndian, 0, 0, b[:24]); s1 != h.ck1 || s2 != h.ck2 {
		return h, false
	}
	if h.pageSize < 512 || h.pageSize > 65536 || h.pageSize&(h.pageSize-1) != 0 {
		return h, false
	}
	return h, true
}

// walChecksum continues SQLite's WAL checksum (s1, s2) over b, whose
// length is a multiple of 8.
func walChecksum(bigEndian bool, s1, s2 uint32, b []byte) (uint32, uint32) {
	order := binary.ByteOrder(binary.LittleEndian)
	if bigEndian {
		order = binary.BigEndian
	}
	for i := 0; i+8 <= len(b); i += 8 {
		s1 += order.Uint32(b[i:]) + s2
		s2 += order.Uint32(b[i+4:]) + s1
	}
	return s1, s2
}

// walTail is what readWAL found in a WAL file.
type walTail struct {
	// valid is false when the file is missing, empty or has no valid
	// header: the WAL holds nothing.
	valid bool
	hdr   walHeader
	// frames are the committed frames after the start point, each a
	// 24-byte header and a page, ending with a commit frame.
	frames []byte
	// last is the index (1-based) of the last frame in frames, or the
	// start point when frames is empty.
	last uint32
}

// errLostPosition reports that the WAL no longer holds the frame the
// backup stopped at: it cannot be followed from there.
var errLostPosition = errors.New("the WAL no longer holds the last shipped frame")

// maxReadBytes bounds the frames one read returns; the rest waits for the
// next one (it always ends at a commit, so a larger transaction is read
// whole).
const maxReadBytes = 64 << 20

// readWAL reads the WAL at path and returns its committed frames after
// frame from (0: from the start), checked against the header's salts and
// the running checksum. The caller must hold the database's write lock, so
// that no frame is being written.
func readWAL(path string, from uint32) (walTail, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return walTail{}, nil
	}
	if err != nil {
		return walTail{}, fmt.Errorf("open WAL: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	head := make([]byte, walHeaderSize)
	if _, err := io.ReadFull(r, head); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return walTail{}, nil
		}
		return walTail{}, fmt.Errorf("read WAL header: %w", err)
	}
	h, ok := parseWALHeader(head)
	if !ok {
		return walTail{}, nil
	}
	t := walTail{valid: true, hdr: h, last: from}
	frameSize := int64(frameHeaderSize) + int64(h.pageSize)
	s1, s2 := h.ck1, h.ck2
	if from > 0 {
		// The running checksum after frame from is stored in its header.
		fh := make([]byte, frameHeaderSize)
		if _, err := f.ReadAt(fh, walHeaderSize+int64(from-1)*frameSize); err != nil {
			return t, errLostPosition
		}
		if binary.BigEndian.Uint32(fh[8:]) != h.salt1 || binary.BigEndian.Uint32(fh[12:]) != h.salt2 {
			return t, errLostPosition
		}
		s1, s2 = binary.BigEndian.Uint32(fh[16:]), binary.BigEndian.Uint32(fh[20:])
		if _, err := f.Seek(walHeaderSize+int64(from)*frameSize, io.SeekStart); err != nil {
			return t, fmt.Errorf("seek WAL: %w", err)
		}
		r.Reset(f)
	}
	var buf []byte
	committed := 0
	frame := make([]byte, frameSize)
	for n := from + 1; ; n++ {
		if _, err := io.ReadFull(r, frame); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			return t, fmt.Errorf("read WAL: %w", err)
		}
		if binary.BigEndian.Uint32(frame[8:]) != h.salt1 || binary.BigEndian.Uint32(frame[12:]) != h.salt2 {
			break
		}
		s1, s2 = walChecksum(h.bigEndian, s1, s2, frame[:8])
		s1, s2 = walChecksum(h.bigEndian, s1, s2, frame[frameHeaderSize:])
		if s1 != binary.BigEndian.Uint32(frame[16:]) || s2 != binary.BigEndian.Uint32(frame[20:]) {
			break
		}
		buf = append(buf, frame...)
		if binary.BigEndian.Uint32(frame[4:]) != 0 {
			committed, t.last = len(buf), n
			if committed >= maxReadBytes {
				break
			}
		}
	}
	t.frames = buf[:committed]
	return t, nil
}

// applyFrames writes the pages of frames (as returned by readWAL) into the
// database file f, truncating it at each commit to the database size the
// commit frame records, as a checkpoint does.
func applyFrames(f *os.File, pageSize uint32, frames []byte) error {
	frameSize := frameHeaderSize + int(pageSize)
	if len(frames)%frameSize != 0 {
		return fmt.Errorf("WAL segment of %d bytes is not a whole number of %d-byte frames", len(frames), frameSize)
	}
	for off := 0; off < len(frames); off += frameSize {
		fr := frames[off : off+frameSize]
		pgno := binary.BigEndian.Uint32(fr[0:])
		if pgno == 0 {
			return errors.New("WAL frame for page 0")
		}
		if _, err := f.WriteAt(fr[frameHeaderSize:], int64(pgno-1)*int64(pageSize)); err != nil {
			return fmt.Errorf("write page %d: %w", pgno, err)
		}
		if size := binary.BigEndian.Uint32(fr[4:]); size != 0 {
			if err := f.Truncate(int64(size) * int64(pageSize)); err != nil {
				return fmt.Errorf("truncate database: %w", err)
			}
		}
	}
	return nil
}

// readWALHeader reads the header of the WAL at path; ok is false when the
// WAL is missing, empty or invalid.
func readWALHeader(path string) (walHeader, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return walHeader{}, false, nil
	}
	if err != nil {
		return walHeader{}, false, fmt.Errorf("open WAL: %w", err)
	}
	defer f.Close()
	b := make([]byte, walHeaderSize)
	if _, err := io.ReadFull(f, b); err != nil {
		return walHeader{}, false, nil
	}
	h, ok := parseWALHeader(b)
	return h, ok, nil
}
