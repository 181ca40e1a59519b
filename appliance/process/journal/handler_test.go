package journal

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// listen returns a journal-like datagram socket and a handler sending to it.
func listen(t *testing.T, fallback *bytes.Buffer) (*net.UnixConn, *Handler) {
	t.Helper()
	addr := &net.UnixAddr{Name: filepath.Join(t.TempDir(), "socket"), Net: "unixgram"}
	srv, err := net.ListenUnixgram("unixgram", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	conn, err := net.DialUnix("unixgram", nil, addr)
	if err != nil {
		t.Fatal(err)
	}
	return srv, newHandler(conn, Options{Fields: map[string]string{"member": "r1"}, Fallback: slog.NewTextHandler(fallback, nil)})
}

// parse decodes one native-protocol datagram.
func parse(t *testing.T, b []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			t.Fatalf("field without newline: %q", b)
		}
		line := b[:nl]
		if eq := bytes.IndexByte(line, '='); eq >= 0 {
			out[string(line[:eq])] = string(line[eq+1:])
			b = b[nl+1:]
			continue
		}
		n := binary.LittleEndian.Uint64(b[nl+1 : nl+9])
		out[string(line)] = string(b[nl+9 : nl+9+int(n)])
		b = b[nl+9+int(n)+1:]
	}
	return out
}

func read(t *testing.T, srv *net.UnixConn) map[string]string {
	t.Helper()
	buf := make([]byte, 1<<20)
	srv.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := srv.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, buf[:n])
}

func TestHandlerFields(t *testing.T) {
	var fb bytes.Buffer
	srv, h := listen(t, &fb)
	log := slog.New(h).With("worker", "chat").WithGroup("req")
	log.Warn("slow request", "path", "/rooms", "err", "line one\nline two")
	f := read(t, srv)
	for k, want := range map[string]string{
		"PRIORITY": "4", "LEVEL": "WARN", "SYSLOG_IDENTIFIER": "dwk", "MEMBER": "r1", "WORKER": "chat",
		"REQ_PATH": "/rooms", "REQ_ERR": "line one\nline two",
	} {
		if f[k] != want {
			t.Errorf("%s = %q, want %q (all: %q)", k, f[k], want, f)
		}
	}
	if !strings.HasPrefix(f["MESSAGE"], "slow request ") || !strings.Contains(f["MESSAGE"], "worker=chat") {
		t.Errorf("MESSAGE = %q", f["MESSAGE"])
	}
	log.Debug("not logged")
	slog.New(h).Error("failed")
	if f := read(t, srv); f["MESSAGE"] != "failed" || f["PRIORITY"] != "3" {
		t.Errorf("after a debug record below the level: %q", f)
	}
	if fb.Len() != 0 {
		t.Errorf("fallback got %q", fb.String())
	}
}

// TestHandlerFallsBack: a journal that went away gets nothing lost: the
// record goes to the fallback.
func TestHandlerFallsBack(t *testing.T) {
	var fb bytes.Buffer
	srv, h := listen(t, &fb)
	srv.Close()
	os.Remove(srv.LocalAddr().String())
	slog.New(h).Info("still here", "worker", "chat")
	if !strings.Contains(fb.String(), "still here") || !strings.Contains(fb.String(), "worker=chat") {
		t.Errorf("fallback = %q", fb.String())
	}
}

func TestFieldName(t *testing.T) {
	for in, want := range map[string]string{"worker": "WORKER", "_pid": "PID", "a.b-c": "A_B_C", "9x": "F_9X", "": "F_"} {
		if got := fieldName(in); got != want {
			t.Errorf("fieldName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttached(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stream")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvStream, "")
	if Attached(f) {
		t.Error("attached without $JOURNAL_STREAM")
	}
	var st = statOf(t, f)
	t.Setenv(EnvStream, st)
	if !Attached(f) {
		t.Errorf("not attached with $JOURNAL_STREAM=%s", st)
	}
	t.Setenv(EnvStream, "1:2")
	if Attached(f) {
		t.Error("attached to another stream")
	}
}

func statOf(t *testing.T, f *os.File) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
