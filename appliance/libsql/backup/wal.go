package backup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dwk/fleet/appliance/libsql/walformat"
)

// walTail is what readWAL found in a WAL file.
type walTail struct {
	// valid is false when the file is missing, empty or has no valid
	// header: the WAL holds nothing.
	valid bool
	hdr   walformat.Header
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
	head := make([]byte, walformat.HeaderSize)
	if _, err := io.ReadFull(r, head); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return walTail{}, nil
		}
		return walTail{}, fmt.Errorf("read WAL header: %w", err)
	}
	h, err := walformat.ParseHeader(head)
	if err != nil {
		return walTail{}, nil // SQLite treats a WAL without a valid header as empty
	}
	t := walTail{valid: true, hdr: h, last: from}
	frameSize := int64(h.FrameSize())
	sum := h.Sum
	if from > 0 {
		// The running checksum after frame from is stored in its header.
		fh := make([]byte, walformat.FrameHeaderSize)
		if _, err := f.ReadAt(fh, walformat.HeaderSize+int64(from-1)*frameSize); err != nil {
			return t, errLostPosition
		}
		if !h.Carries(fh) {
			return t, errLostPosition
		}
		sum = walformat.FrameSum(fh)
		if _, err := f.Seek(walformat.HeaderSize+int64(from)*frameSize, io.SeekStart); err != nil {
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
		var ok bool
		if sum, ok = h.Next(sum, frame); !ok {
			break
		}
		buf = append(buf, frame...)
		if walformat.CommitSize(frame) != 0 {
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
	frameSize := walformat.FrameHeaderSize + int(pageSize)
	if len(frames)%frameSize != 0 {
		return fmt.Errorf("WAL segment of %d bytes is not a whole number of %d-byte frames", len(frames), frameSize)
	}
	for off := 0; off < len(frames); off += frameSize {
		fr := frames[off : off+frameSize]
		pgno := walformat.PageNumber(fr)
		if pgno == 0 {
			return errors.New("WAL frame for page 0")
		}
		if _, err := f.WriteAt(fr[walformat.FrameHeaderSize:], int64(pgno-1)*int64(pageSize)); err != nil {
			return fmt.Errorf("write page %d: %w", pgno, err)
		}
		if size := walformat.CommitSize(fr); size != 0 {
			if err := f.Truncate(int64(size) * int64(pageSize)); err != nil {
				return fmt.Errorf("truncate database: %w", err)
			}
		}
	}
	return nil
}

// readWALHeader reads the header of the WAL at path; ok is false when the
// WAL is missing, empty or invalid.
func readWALHeader(path string) (walformat.Header, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return walformat.Header{}, false, nil
	}
	if err != nil {
		return walformat.Header{}, false, fmt.Errorf("open WAL: %w", err)
	}
	defer f.Close()
	b := make([]byte, walformat.HeaderSize)
	if _, err := io.ReadFull(f, b); err != nil {
		return walformat.Header{}, false, nil
	}
	h, err := walformat.ParseHeader(b)
	return h, err == nil, nil
}
