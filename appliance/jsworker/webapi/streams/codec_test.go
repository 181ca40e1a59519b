package streams

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestInflaterInChunks(t *testing.T) {
	want := []byte(strings.Repeat("chunk by chunk ", 2000))
	for _, format := range []string{"gzip", "deflate", "deflate-raw"} {
		z, err := goCompress(format, want)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 3, 100, len(z)} {
			f := newInflater(format)
			var got []byte
			for i := 0; i < len(z); i += size {
				out, err := f.write(z[i:min(i+size, len(z))])
				if err != nil {
					t.Fatalf("%s in chunks of %d: write: %v", format, size, err)
				}
				got = append(got, out...)
			}
			out, err := f.end()
			if err != nil {
				t.Fatalf("%s in chunks of %d: end: %v", format, size, err)
			}
			if got = append(got, out...); !bytes.Equal(got, want) {
				t.Errorf("%s in chunks of %d: got %d bytes, want %d", format, size, len(got), len(want))
			}
			waitExited(t, f.core)
		}
	}
}

func TestInflaterErrors(t *testing.T) {
	z, err := goCompress("gzip", []byte("some text"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		chunks [][]byte
		want   error // from the writes, else from end
	}{
		{"corrupt header", [][]byte{[]byte("not gzip at all")}, errDecompress},
		{"truncated", [][]byte{z[:len(z)-3]}, errIncomplete},
		{"trailing bytes", [][]byte{append(append([]byte(nil), z...), 'x')}, errTrailing},
		{"a later chunk after the end", [][]byte{z, {'x'}}, errTrailing},
		{"no input", nil, errIncomplete},
	} {
		f := newInflater("gzip")
		var got error
		for _, c := range tc.chunks {
			if _, got = f.write(c); got != nil {
				break
			}
		}
		if got == nil {
			_, got = f.end()
		}
		if !errors.Is(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
		f.close()
		if f.started {
			waitExited(t, f.core)
		}
	}
}

// TestInflaterEndsWhenDropped checks that a decompressor's goroutine
// ends when its stream is closed mid-way or its handle is collected.
func TestInflaterEndsWhenDropped(t *testing.T) {
	z, err := goCompress("deflate", bytes.Repeat([]byte("abc"), 1000))
	if err != nil {
		t.Fatal(err)
	}
	f := newInflater("deflate")
	if _, err := f.write(z[:10]); err != nil {
		t.Fatal(err)
	}
	f.close()
	waitExited(t, f.core)

	dropped := newInflater("deflate")
	if _, err := dropped.write(z[:10]); err != nil {
		t.Fatal(err)
	}
	core := dropped.core
	dropped = nil
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		select {
		case <-core.exited:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the goroutine of a collected decompressor did not end")
		}
	}
}

func waitExited(t *testing.T, c *inflateCore) {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the decompressor's goroutine did not end")
	}
}

func TestUTF8Decoder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"ASCII", []string{"abc"}, "abc"},
		{"split sequence", []string{"\xE2\x82", "\xAC"}, "€"},
		{"BOM dropped once", []string{"\xEF\xBB\xBF\xEF\xBB\xBFx"}, "\uFEFFx"},
		{"BOM split", []string{"\xEF", "\xBB", "\xBFx"}, "x"},
		{"truncated sequence then ASCII is one U+FFFD", []string{"\xE2\x82A"}, "\uFFFDA"},
		{"surrogate bytes", []string{"\xED\xA0\x80"}, "\uFFFD\uFFFD\uFFFD"},
		{"overlong", []string{"\xC0\xAF"}, "\uFFFD\uFFFD"},
		{"truncated at the end", []string{"a\xF0\x9F"}, "a\uFFFD"},
		{"above U+10FFFF", []string{"\xF4\x90\x80\x80"}, "\uFFFD\uFFFD\uFFFD\uFFFD"},
	} {
		d := newUTF8Decoder(false, false)
		var got strings.Builder
		for k, c := range tc.chunks {
			s, err := d.decode([]byte(c), k == len(tc.chunks)-1)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got.WriteString(s)
		}
		if got.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got.String(), tc.want)
		}
	}
	if _, err := newUTF8Decoder(true, false).decode([]byte("\xFF"), true); !errors.Is(err, errInvalidUTF8) {
		t.Errorf("fatal: got %v, want errInvalidUTF8", err)
	}
}
