package encoding

import (
	"bytes"
	"testing"
)

func TestUTF8Decoder(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"ascii", []byte("hello"), "hello"},
		{"multibyte", []byte("é€😀"), "é€😀"},
		{"lone continuation", []byte{0x80, 'a'}, "\uFFFDa"},
		{"truncated sequence is one error", []byte{0xE2, 0x82, 'a'}, "\uFFFDa"},
		{"truncated at the end", []byte{'a', 0xF0, 0x9F, 0x98}, "a\uFFFD"},
		{"overlong", []byte{0xC0, 0xAF}, "\uFFFD\uFFFD"},
		{"overlong three bytes", []byte{0xE0, 0x80, 0xAF}, "\uFFFD\uFFFD\uFFFD"},
		{"surrogate", []byte{0xED, 0xA0, 0x80}, "\uFFFD\uFFFD\uFFFD"},
		{"above U+10FFFF", []byte{0xF4, 0x90, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"F5", []byte{0xF5, 'x'}, "\uFFFDx"},
		{"bad second byte restarts", []byte{0xE2, 'x', 0xE2, 0x82, 0xAC}, "\uFFFDx€"},
	} {
		var d utf8Decoder
		out, ok := d.decode(nil, tc.in, true, false)
		if got := string(out); got != tc.want || !ok {
			t.Errorf("%s: got %q (%v), want %q", tc.name, got, ok, tc.want)
		}
		if bytes.ContainsRune([]byte(tc.want), 0xFFFD) {
			var f utf8Decoder
			if _, ok := f.decode(nil, tc.in, true, true); ok {
				t.Errorf("%s: fatal decode did not fail", tc.name)
			}
		}
	}
}

func TestUTF8DecoderStreams(t *testing.T) {
	in := []byte("a€😀b")
	for split := 0; split <= len(in); split++ {
		var d utf8Decoder
		out, _ := d.decode(nil, in[:split], false, false)
		out, _ = d.decode(out, in[split:], true, false)
		if string(out) != "a€😀b" {
			t.Errorf("split at %d: got %q", split, out)
		}
	}
}

func TestUTF16Decoder(t *testing.T) {
	for _, tc := range []struct {
		name string
		be   bool
		in   []byte
		want string
	}{
		{"le", false, []byte{'h', 0, 'i', 0, 0xAC, 0x20}, "hi€"},
		{"be", true, []byte{0, 'h', 0x20, 0xAC}, "h€"},
		{"pair", false, []byte{0x3D, 0xD8, 0x00, 0xDE}, "😀"},
		{"lone trail", false, []byte{0x00, 0xDE, 'a', 0}, "\uFFFDa"},
		{"lead then char", false, []byte{0x3D, 0xD8, 'a', 0}, "\uFFFDa"},
		{"lead at the end", false, []byte{'a', 0, 0x3D, 0xD8}, "a\uFFFD"},
		{"odd byte at the end", false, []byte{'a', 0, 'b'}, "a\uFFFD"},
	} {
		d := utf16Decoder{bigEndian: tc.be}
		out, _ := d.decode(nil, tc.in, true, false)
		if got := string(out); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestWindows1252(t *testing.T) {
	out, _ := windows1252Decoder{}.decode(nil, []byte{'a', 0x80, 0x81, 0x9F, 0xA0, 0xE9, 0xFF}, true, true)
	if got, want := string(out), "a€\u0081Ÿ\u00a0éÿ"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestForgivingBase64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"", "", true},
		{"YQ==", "a", true},
		{"YQ", "a", true},
		{"YQ=", "", false},
		{"YWI=", "ab", true},
		{" Y W\tI\n=\f", "ab", true},
		{"YWJj", "abc", true},
		{"YR==", "a", true}, // leftover bits are ignored
		{"Y", "", false},
		{"YQ===", "", false},
		{"Y=Q=", "", false},
		{"YQ-_", "", false},
		{"ab\u00a0c", "", false},
	} {
		got, ok := forgivingBase64Decode(tc.in)
		if ok != tc.ok || ok && string(got) != tc.want {
			t.Errorf("%q: got %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLenientBase64(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"YWJj", "abc"},
		{"YW Jj\n", "abc"},
		{"YW$Jj", "abc"},
		{"-_8", "\xfb\xff"},
		{"+/8=", "\xfb\xff"},
		{"YQ==YQ==", "a"},
		{"YWI", "ab"},
		{"Y", ""},
	} {
		if got := string(lenientBase64Decode(tc.in)); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHexDecode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"00ff7A", "\x00\xff\x7a"},
		{"abc", "\xab"},
		{"ab zz cd", "\xab"},
		{"g0", ""},
	} {
		if got := string(hexDecode(tc.in)); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEncodeInto(t *testing.T) {
	for _, tc := range []struct {
		in            string
		size          int
		read, written int
	}{
		{"abc", 10, 3, 3},
		{"abc", 2, 2, 2},
		{"a€", 3, 1, 1},
		{"a€", 4, 2, 4},
		{"😀x", 3, 0, 0},
		{"😀x", 5, 3, 5},
		{"\uFFFD", 3, 1, 3},
	} {
		read, written := encodeInto(tc.in, make([]byte, tc.size))
		if read != tc.read || written != tc.written {
			t.Errorf("%q into %d: got %d, %d; want %d, %d", tc.in, tc.size, read, written, tc.read, tc.written)
		}
	}
}
