package walformat_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
	"github.com/dwk/fleet/appliance/libsql/walformat"
)

// realWAL returns the WAL file of a SQLite database after three
// transactions, with no checkpoint.
func realWAL(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data")
	c, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.DisableCheckpointOnClose(); err != nil {
		t.Fatal(err)
	}
	if err := c.Exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t(v)"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := c.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d)", i)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFramesOfARealWAL: SQLite's own WAL parses, every frame checks out
// against the running checksum, the last one is a commit, and three
// transactions left three commit frames.
func TestFramesOfARealWAL(t *testing.T) {
	b := realWAL(t)
	h, err := walformat.ParseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.PageSize != 4096 {
		t.Errorf("page size %d, want SQLite's default 4096", h.PageSize)
	}
	frames := b[walformat.HeaderSize:]
	if len(frames) == 0 || len(frames)%h.FrameSize() != 0 {
		t.Fatalf("%d bytes of frames are not whole %d-byte frames", len(frames), h.FrameSize())
	}
	sum, commits := h.Sum, 0
	var last []byte
	for off := 0; off < len(frames); off += h.FrameSize() {
		last = frames[off : off+h.FrameSize()]
		var ok bool
		if sum, ok = h.Next(sum, last); !ok {
			t.Fatalf("frame %d does not check out", off/h.FrameSize()+1)
		}
		if walformat.PageNumber(last) == 0 {
			t.Errorf("frame %d holds page 0", off/h.FrameSize()+1)
		}
		if walformat.CommitSize(last) != 0 {
			commits++
		}
	}
	if commits != 3 || walformat.CommitSize(last) == 0 {
		t.Errorf("%d commit frames (last one a commit: %v), want 3 ending the log", commits, walformat.CommitSize(last) != 0)
	}
}

// TestDamageIsCaught: a changed byte in a page, a frame of another log
// generation, a header SQLite has not finished and a file that is not a
// WAL are each told apart.
func TestDamageIsCaught(t *testing.T) {
	b := realWAL(t)
	h, err := walformat.ParseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	first := func() []byte {
		return append([]byte(nil), b[walformat.HeaderSize:walformat.HeaderSize+h.FrameSize()]...)
	}

	page := first()
	page[walformat.FrameHeaderSize+100] ^= 1
	if _, ok := h.Next(h.Sum, page); ok {
		t.Error("a frame with a changed page byte checks out")
	}
	salted := first()
	binary.BigEndian.PutUint32(salted[8:], h.Salt1+1)
	if _, ok := h.Next(h.Sum, salted); ok || h.Carries(salted) {
		t.Error("a frame of another log generation checks out")
	}
	if _, ok := h.Next(h.Sum, first()[:100]); ok {
		t.Error("a short frame checks out")
	}

	unfinished := append([]byte(nil), b[:walformat.HeaderSize]...)
	unfinished[31] ^= 1
	if _, err := walformat.ParseHeader(unfinished); !errors.Is(err, walformat.ErrNoHeader) {
		t.Errorf("header with a wrong checksum: %v, want ErrNoHeader", err)
	}
	if _, err := walformat.ParseHeader(b[:10]); !errors.Is(err, walformat.ErrNoHeader) {
		t.Errorf("short header: %v, want ErrNoHeader", err)
	}
	notWAL := append([]byte(nil), b[:walformat.HeaderSize]...)
	notWAL[0] = 0
	if _, err := walformat.ParseHeader(notWAL); !errors.Is(err, walformat.ErrCorrupt) {
		t.Errorf("wrong magic: %v, want ErrCorrupt", err)
	}
}
