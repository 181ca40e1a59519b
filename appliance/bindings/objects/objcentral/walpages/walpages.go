package walpages

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dwk/fleet/appliance/libsql/walformat"
)

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
	offset int64
	frames int
	sum    walformat.Sum
	header walformat.Header
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
	var h [walformat.HeaderSize]byte
	if size < walformat.HeaderSize {
		return Log{}, nil // no complete header: nothing committed
	}
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return Log{}, fmt.Errorf("read wal: %w", err)
	}
	if salt1, salt2 := walformat.Salts(h[:]); pos.offset == 0 || salt1 != pos.header.Salt1 || salt2 != pos.header.Salt2 {
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

// Parse is Read over the bytes of a WAL file. A header that is not
// SQLite's is an error wrapping walformat.ErrCorrupt.
func Parse(data []byte) (Log, error) {
	h, err := walformat.ParseHeader(data)
	if errors.Is(err, walformat.ErrNoHeader) {
		return Log{}, nil // a header SQLite has not finished writing: nothing is committed
	}
	if err != nil {
		return Log{}, err
	}
	pos := Position{offset: walformat.HeaderSize, header: h, sum: h.Sum}
	return parseFrames(data[walformat.HeaderSize:], pos), nil
}

// parseFrames reads the frames in data, which starts at pos.
func parseFrames(data []byte, pos Position) Log {
	h := pos.header
	log := Log{PageSize: int(h.PageSize), Salt1: h.Salt1, Salt2: h.Salt2, Frames: pos.frames, Pages: map[uint32][]byte{}, End: pos}
	frameSize := h.FrameSize()
	sum := pos.sum
	var pending [][]byte // frames since the last commit frame
	n := pos.frames
	for off := 0; off+frameSize <= len(data); off += frameSize {
		frame := data[off : off+frameSize]
		var ok bool
		if sum, ok = h.Next(sum, frame); !ok {
			break
		}
		n++
		pending = append(pending, frame)
		if size := walformat.CommitSize(frame); size != 0 {
			for _, fr := range pending {
				log.Pages[walformat.PageNumber(fr)] = append([]byte(nil), fr[walformat.FrameHeaderSize:]...)
			}
			pending = pending[:0]
			log.DBSize = size
			log.Frames = n
			log.End = pos
			log.End.offset = pos.offset + int64(off+frameSize)
			log.End.frames, log.End.sum = n, sum
		}
	}
	return log
}
