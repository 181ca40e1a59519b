package blob

import (
	"bytes"
	"mime/multipart"
	"regexp"
	"testing"
)

// TestParseWhatGoWrites parses a body written by Go's own multipart
// writer, which quotes names the RFC 2045 way.
func TestParseWhatGoWrites(t *testing.T) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("näme", "välue"); err != nil {
		t.Fatal(err)
	}
	fw, err := w.CreateFormFile("upload", `dir\file "1".bin`)
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte{0, 1, 2, 0xFF, '\r', '\n', '-', '-'}
	if _, err := fw.Write(payload); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := parseForm(buf.Bytes(), w.FormDataContentType())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2", len(got))
	}
	if e := got[0]; e.name != "näme" || e.value != "välue" || e.isFile {
		t.Errorf("field: got %+v", e)
	}
	if e := got[1]; e.name != "upload" || !e.isFile || e.filename != `dir\file "1".bin` || e.ctype != "application/octet-stream" || !bytes.Equal(e.data, payload) {
		t.Errorf("file: got %+v", e)
	}
}

// TestSerializeForGo checks that Go's multipart reader reads what
// serializeForm writes.
func TestSerializeForGo(t *testing.T) {
	entries := []formEntry{
		{name: "a", value: "1\n2"},
		{name: "f", isFile: true, data: []byte("--\r\nbytes"), filename: "x.txt", ctype: "text/plain"},
	}
	boundary := newBoundary()
	r := multipart.NewReader(bytes.NewReader(serializeForm(entries, boundary)), boundary)
	form, err := r.ReadForm(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := form.Value["a"]; len(got) != 1 || got[0] != "1\r\n2" {
		t.Errorf("a: got %q, want [\"1\\r\\n2\"]", got)
	}
	fh := form.File["f"]
	if len(fh) != 1 || fh[0].Filename != "x.txt" || fh[0].Header.Get("Content-Type") != "text/plain" || fh[0].Size != 9 {
		t.Errorf("f: got %+v", fh)
	}
}

func TestNewBoundary(t *testing.T) {
	re := regexp.MustCompile(`^----DwkFormBoundary[A-Za-z0-9]{16}$`)
	a, b := newBoundary(), newBoundary()
	if !re.MatchString(a) || a == b {
		t.Errorf("boundaries %q and %q: want two different ones matching %s", a, b, re)
	}
}

func TestNormalizeNewlines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\nb", "a\r\nb"},
		{"a\rb", "a\r\nb"},
		{"a\r\nb", "a\r\nb"},
		{"\n\r", "\r\n\r\n"},
		{"\r\r\n", "\r\n\r\n"},
	} {
		if got := normalizeNewlines(tc.in); got != tc.want {
			t.Errorf("normalizeNewlines(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPercentDecode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a+b", "a b"},
		{"%41%4a%4A", "AJJ"},
		{"%", "%"},
		{"%4", "%4"},
		{"%zz", "%zz"},
		{"%C3%A9", "é"},
		{"%FF", "\uFFFD"},
	} {
		if got := percentDecode([]byte(tc.in)); got != tc.want {
			t.Errorf("percentDecode(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
