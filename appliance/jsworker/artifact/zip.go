package artifact

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// modDate is the modification date of every member, 1980-01-01 (the
// earliest an MS-DOS date holds) in MS-DOS form; the time is 00:00:00.
const modDate = 1<<5 | 1

// Version numbers and flags of the zip headers (APPNOTE.TXT 4.4).
const (
	zipVersion20 = 20     // deflate, directories
	creatorUnix  = 3 << 8 // the external attributes hold a Unix mode
	flagUTF8     = 0x800  // the name is UTF-8
)

// writeZip writes members as a zip archive whose bytes depend on nothing
// but the members: sorted by name, each with the same time and mode, no
// extra fields, no data descriptors, deflated at flate.BestCompression
// unless that does not make it smaller, when it is stored.
func writeZip(out io.Writer, members []member) error {
	sorted := append([]member(nil), members...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	zw := zip.NewWriter(out)
	var buf bytes.Buffer
	for _, m := range sorted {
		buf.Reset()
		fw, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			return err
		}
		if _, err := fw.Write(m.data); err != nil {
			return err
		}
		if err := fw.Close(); err != nil {
			return err
		}
		fh := &zip.FileHeader{
			Name:               m.name,
			Method:             zip.Deflate,
			ModifiedDate:       modDate,
			CRC32:              crc32.ChecksumIEEE(m.data),
			UncompressedSize64: uint64(len(m.data)),
		}
		body := buf.Bytes()
		if len(body) >= len(m.data) {
			fh.Method, body = zip.Store, m.data
		}
		fh.CompressedSize64 = uint64(len(body))
		fh.SetMode(0o644)
		fh.CreatorVersion = creatorUnix | zipVersion20
		fh.ReaderVersion = zipVersion20
		if !isASCII(m.name) && utf8.ValidString(m.name) {
			fh.Flags |= flagUTF8
		}
		w, err := zw.CreateRaw(fh)
		if err != nil {
			return err
		}
		if _, err := w.Write(body); err != nil {
			return err
		}
	}
	return zw.Close()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// sortEntries sorts entries by name.
func sortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return strings.Compare(es[i].Name, es[j].Name) < 0 })
}
