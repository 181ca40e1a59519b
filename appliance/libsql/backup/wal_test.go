package backup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// openWAL opens a WAL database that never checkpoints on its own, as the
// server's connections are with a backup.
func openWAL(t *testing.T, path string) *sqlite.Conn {
	t.Helper()
	c, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.DisableCheckpointOnClose(); err != nil {
		t.Fatal(err)
	}
	if err := c.Exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0"); err != nil {
		t.Fatal(err)
	}
	return c
}

func count(t *testing.T, path string) int64 {
	t.Helper()
	c, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n, err := c.QueryInt64s("SELECT count(*) + sum(v) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	return n[0]
}

// TestReadWALAndApplyRebuildTheDatabase reads the committed frames of a
// real SQLite WAL in two steps and applies them to a copy of the database
// file taken before: the copy then equals the database.
func TestReadWALAndApplyRebuildTheDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data")
	c := openWAL(t, path)
	if err := c.Exec("CREATE TABLE t(v); PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	snapshot, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := c.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d)", i)); err != nil {
			t.Fatal(err)
		}
	}
	first, err := readWAL(path+"-wal", 0)
	if err != nil || !first.valid || first.last == 0 {
		t.Fatalf("readWAL = %+v, %v; want frames", first.last, err)
	}
	if err := c.Exec("BEGIN; INSERT INTO t SELECT v + 100 FROM t; COMMIT"); err != nil {
		t.Fatal(err)
	}
	second, err := readWAL(path+"-wal", first.last)
	if err != nil || second.last <= first.last || second.hdr.Salt1 != first.hdr.Salt1 {
		t.Fatalf("second readWAL: last %d after %d, %v", second.last, first.last, err)
	}

	copyPath := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(copyPath, snapshot, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(copyPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tail := range []walTail{first, second} {
		if err := applyFrames(f, tail.hdr.PageSize, tail.frames); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	if got, want := count(t, copyPath), count(t, path); got != want {
		t.Errorf("rebuilt database: %d, want %d", got, want)
	}
}

// TestReadWALStopsAtDamage: a torn last frame or a flipped byte ends the
// committed frames at the last intact commit.
func TestReadWALStopsAtDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	c := openWAL(t, path)
	for i := range 5 {
		if err := c.Exec(fmt.Sprintf("CREATE TABLE IF NOT EXISTS t(v); INSERT INTO t VALUES (%d)", i)); err != nil {
			t.Fatal(err)
		}
	}
	whole, err := readWAL(path+"-wal", 0)
	if err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	frame := whole.hdr.FrameSize()
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"torn", func(b []byte) []byte { return b[:len(b)-frame/2] }},
		{"flipped", func(b []byte) []byte { b[len(b)-10] ^= 0xff; return b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "wal")
			if err := os.WriteFile(p, c.damage(bytes.Clone(wal)), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readWAL(p, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.last >= whole.last || len(got.frames) == 0 || !bytes.Equal(got.frames, whole.frames[:len(got.frames)]) {
				t.Errorf("damaged WAL: last %d of %d, want an intact shorter prefix", got.last, whole.last)
			}
		})
	}
	if _, err := readWAL(path+"-wal", whole.last+5); !errors.Is(err, errLostPosition) {
		t.Errorf("reading after a frame the WAL lacks: %v, want errLostPosition", err)
	}
}

func TestObjectChecksum(t *testing.T) {
	obj := encodeSegment(4096, []byte("frames"))
	ps, frames, err := decodeSegment(obj)
	if err != nil || ps != 4096 || string(frames) != "frames" {
		t.Fatalf("decode = %d %q %v", ps, frames, err)
	}
	obj[len(obj)-6] ^= 1
	if _, _, err := decodeSegment(obj); !errors.Is(err, errCorrupt) {
		t.Errorf("altered segment: %v, want errCorrupt", err)
	}
	if _, err := decodeObject(kindSnapshot, encodeObject(kindConfig, nil)); !errors.Is(err, errCorrupt) {
		t.Errorf("wrong kind: %v, want errCorrupt", err)
	}
}
