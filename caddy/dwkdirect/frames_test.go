package dwkdirect

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// frame builds one WebSocket frame with a payload of n bytes.
func frame(n int, masked bool) []byte {
	var h []byte
	switch {
	case n < 126:
		h = []byte{0x82, byte(n)}
	case n <= 0xffff:
		h = []byte{0x82, 126, 0, 0}
		binary.BigEndian.PutUint16(h[2:], uint16(n))
	default:
		h = make([]byte, 10)
		h[0], h[1] = 0x82, 127
		binary.BigEndian.PutUint64(h[2:], uint64(n))
	}
	if masked {
		h[1] |= 0x80
		h = append(h, 1, 2, 3, 4)
	}
	return append(h, bytes.Repeat([]byte{'x'}, n)...)
}

func TestFramesFollowBoundariesAcrossChunks(t *testing.T) {
	for _, masked := range []bool{false, true} {
		var stream []byte
		var ends []int
		for _, n := range []int{0, 5, 125, 126, 300, 70000} {
			stream = append(stream, frame(n, masked)...)
			ends = append(ends, len(stream))
		}
		for _, chunk := range []int{1, 3, 7, 1000, len(stream)} {
			var f frames
			isEnd := map[int]bool{}
			for _, e := range ends {
				isEnd[e] = true
			}
			for off := 0; off < len(stream); off += chunk {
				end := min(off+chunk, len(stream))
				f.feed(stream[off:end])
				if got := f.boundary(); got != isEnd[end] {
					t.Fatalf("masked=%v chunk=%d: after %d bytes boundary=%v, want %v", masked, chunk, end, got, isEnd[end])
				}
			}
		}
	}
}

func TestCloseFrame(t *testing.T) {
	got := closeFrame(closeServiceRestart, "bye", false)
	want := []byte{0x88, 5, 0x03, 0xf4, 'b', 'y', 'e'}
	if !bytes.Equal(got, want) {
		t.Errorf("server close frame = %x, want %x", got, want)
	}
	got = closeFrame(closeGoingAway, "", true)
	want = []byte{0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe9}
	if !bytes.Equal(got, want) {
		t.Errorf("client close frame = %x, want %x", got, want)
	}
	var f frames
	f.feed(closeFrame(closeServiceRestart, "front door restarting", false))
	if !f.boundary() {
		t.Error("a close frame does not end on a boundary")
	}
}
