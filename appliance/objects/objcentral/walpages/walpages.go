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
}

// Read parses the WAL file at path and returns the pages of its committed
// frames after the first skip of them. skip counts frames of the same
// generation (Salt1, Salt2) read before; pass 0 for another generation. A
// missing or empty file is an empty Log.
func Read(path string, skip int) (Log, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Log{}, nil
	}
	if err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	return Parse(data, skip)
}

// Parse is Read over the bytes of a WAL file.
func Parse(data []byte, skip int) (Log, error) {
	if len(data) < headerSize {
		return Log{}, nil
	}
	h := data[:headerSize]
	magic := binary.BigEndian.Uint32(h[0:])
	if magic != magicLE && magic != magicBE {
		return Log{}, fmt.Errorf("%w: magic %#x", ErrCorrupt, magic)
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if magic == magicBE {
		order = binary.BigEndian
	}
	pageSize := int(binary.BigEndian.Uint32(h[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return Log{}, fmt.Errorf("%w: page size %d", ErrCorrupt, pageSize)
	}
	log := Log{PageSize: pageSize, Salt1: binary.BigEndian.Uint32(h[16:]), Salt2: binary.BigEndian.Uint32(h[20:])}
	s0, s1 := checksum(order, h[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(h[24:]) || s1 != binary.BigEndian.Uint32(h[28:]) {
		// A header SQLite has not finished writing: nothing is committed.
		return Log{}, nil
	}
	frameSize := frameHeaderSize + pageSize
	type frame struct {
		pgno uint32
		page []byte
	}
	var pending []frame // frames since the last commit frame
	pages := map[uint32][]byte{}
	n := 0
	for off := headerSize; off+frameSize <= len(data); off += frameSize {
		fh := data[off : off+frameHeaderSize]
		page := data[off+frameHeaderSize : off+frameSize]
		if binary.BigEndian.Uint32(fh[8:]) != log.Salt1 || binary.BigEndian.Uint32(fh[12:]) != log.Salt2 {
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
			if n > skip {
				for _, fr := range pending {
					pages[fr.pgno] = fr.page
				}
				log.DBSize = size
			}
			pending = pending[:0]
			log.Frames = n
		}
	}
	if log.Frames < skip {
		return Log{}, fmt.Errorf("walpages: %d committed frames, fewer than the %d already read", log.Frames, skip)
	}
	// Frames of a commit that straddles skip belong to it whole; the caller
	// only ever skips whole commits.
	for pgno, p := range pages {
		pages[pgno] = append([]byte(nil), p...)
	}
	log.Pages = pages
	return log, nil
}

// checksum continues SQLite's WAL checksum over b (a multiple of 8 bytes).
func checksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
