package walpages

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

const (
	headerSize      = 32
	frameHeaderSize = 24
	magicLE         = 0x377f0682 // checksums over little-endian words
	magicBE         = 0x377f0683 // checksums over big-endian words
)

// ErrCorrupt is returned for a WAL header that is not SQLite's.
var ErrCorrupt = errors.New("walpages: not a SQLite WAL file")

// Log is what Read found in a WAL file.
type Log struct {
	// PageSize of the database, from the WAL header. Zero for an empty log.
	PageSize int
	// Salt1 and Salt2 identify this generation of the log: SQLite changes
	// them each time it restarts the log from its beginning.
	Salt1, Salt2 uint32
	// Frames is the number of frames up to and including the last commit
	// frame.
	Frames int
	// Pages are the page images of the frames read, by page number (1 is
	// the first page of the database file), the latest image of each page.
	Pages map[uint32][]byte
	// DBSize is the database's size in pages after the last commit read;
	// zero when no commit frame was read.
	DBSize uint32
	// End is where a later ReadFrom continues: just after the last commit
	// frame.
	End Position
}

// Position is a place in a WAL file right after a commit frame, with the
// running checksum there, so that reading can go on from it.
type Position struct {
	offset       int64
	frames       int
	s0, s1       uint32
	salt1, salt2 uint32
	pageSize     int
	bigEndian    bool
}

// Frames is the number of frames before the position.
func (p Position) Frames() int { return p.frames }

// Offset is the position's byte offset in the file; zero for the start.
func (p Position) Offset() int64 { return p.offset }

// Read parses the WAL file at path and returns the pages of all its
// committed frames. A missing or empty file is an empty Log.
func Read(path string) (Log, error) { return ReadFrom(path, Position{}) }

// ReadFrom returns the pages of the frames committed after pos (from the
// start when pos is the zero Position or the log was restarted since).
func ReadFrom(path string, pos Position) (Log, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Log{}, nil
	}
	if err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	return ReadFileFrom(f, info.Size(), pos)
}

// ReadFileFrom is ReadFrom on an open WAL file of size bytes, for a reader
// that keeps it open between reads (and has just looked at its size).
func ReadFileFrom(f *os.File, size int64, pos Position) (Log, error) {
	var h [headerSize]byte
	if size < headerSize {
		return Log{}, nil // no complete header: nothing committed
	}
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	if pos.offset == 0 || binary.BigEndian.Uint32(h[16:]) != pos.salt1 || binary.BigEndian.Uint32(h[20:]) != pos.salt2 {
		data := make([]byte, size)
		if _, err := f.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
			return Log{}, fmt.Errorf("read wal: %w", err)
		}
		return Parse(data)
	}
	if size <= pos.offset {
		return parseFrames(nil, pos), nil
	}
	data := make([]byte, size-pos.offset)
	n, err := f.ReadAt(data, pos.offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	return parseFrames(data[:n], pos), nil
}

// Parse is Read over the bytes of a WAL file.
func Parse(data []byte) (Log, error) {
	if len(data) < headerSize {
		return Log{}, nil
	}
	h := data[:headerSize]
	magic := binary.BigEndian.Uint32(h[0:])
	if magic != magicLE && magic != magicBE {
		return Log{}, fmt.Errorf("%w: magic %#x", ErrCorrupt, magic)
	}
	pageSize := int(binary.BigEndian.Uint32(h[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return Log{}, fmt.Errorf("%w: page size %d", ErrCorrupt, pageSize)
	}
	pos := Position{
		offset: headerSize, pageSize: pageSize, bigEndian: magic == magicBE,
		salt1: binary.BigEndian.Uint32(h[16:]), salt2: binary.BigEndian.Uint32(h[20:]),
	}
	pos.s0, pos.s1 = checksum(pos.order(), h[:24], 0, 0)
	if pos.s0 != binary.BigEndian.Uint32(h[24:]) || pos.s1 != binary.BigEndian.Uint32(h[28:]) {
		// A header SQLite has not finished writing: nothing is committed.
		return Log{}, nil
	}
	return parseFrames(data[headerSize:], pos), nil
}

func (p Position) order() binary.ByteOrder {
	if p.bigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// parseFrames reads the frames in data, which starts at pos.
func parseFrames(data []byte, pos Position) Log {
	log := Log{PageSize: pos.pageSize, Salt1: pos.salt1, Salt2: pos.salt2, Frames: pos.frames, Pages: map[uint32][]byte{}, End: pos}
	order := pos.order()
	frameSize := frameHeaderSize + pos.pageSize
	s0, s1 := pos.s0, pos.s1
	type frame struct {
		pgno uint32
		page []byte
	}
	var pending []frame // frames since the last commit frame
	n := pos.frames
	for off := 0; off+frameSize <= len(data); off += frameSize {
		fh := data[off : off+frameHeaderSize]
		page := data[off+frameHeaderSize : off+frameSize]
		if binary.BigEndian.Uint32(fh[8:]) != pos.salt1 || binary.BigEndian.Uint32(fh[12:]) != pos.salt2 {
			break
		}
		s0, s1 = checksum(order, fh[:8], s0, s1)
		s0, s1 = checksum(order, page, s0, s1)
		if s0 != binary.BigEndian.Uint32(fh[16:]) || s1 != binary.BigEndian.Uint32(fh[20:]) {
			break
		}
		n++
		pending = append(pending, frame{pgno: binary.BigEndian.Uint32(fh[0:]), page: page})
		if size := binary.BigEndian.Uint32(fh[4:]); size != 0 {
			for _, fr := range pending {
				log.Pages[fr.pgno] = append([]byte(nil), fr.page...)
			}
			pending = pending[:0]
			log.DBSize = size
			log.Frames = n
			log.End = pos
			log.End.offset = pos.offset + int64(off+frameSize)
			log.End.frames, log.End.s0, log.End.s1 = n, s0, s1
		}
	}
	return log
}

// checksum continues SQLite's WAL checksum over b (a multiple of 8 bytes).
func checksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
