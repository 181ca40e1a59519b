package backup

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"time"
)

// The bucket layout under the prefix. A generation is named by the time
// it began (hex Unix nanoseconds, so names sort by time):
//
//	<ns>/<generation>/snapshot              the database file
//	<ns>/<generation>/config.json           the namespace configuration
//	<ns>/<generation>/wal/<seq>-<ms>-<salts>-<frame>   committed WAL frames, in order
//	<ns>/deleted-<time>                     the namespace was deleted
//
// <seq> is the segment's 16-hex-digit number within the generation and
// <ms> the Unix time in milliseconds when its frames were read (all of
// them committed by then): point-in-time restore applies the segments up
// to the time asked for. <salts> (16 hex digits) name the WAL incarnation
// and <frame> (8 hex digits) the last frame the segment holds, so that a
// server that restarts finds where its shipping stopped by listing.
const (
	snapshotName  = "snapshot"
	configName    = "config.json"
	walDir        = "wal/"
	deletedPrefix = "deleted-"
)

func timeName(t time.Time) string { return fmt.Sprintf("%016x", t.UnixNano()) }

// parseTimeName reads a generation or deletion time.
func parseTimeName(s string) (time.Time, bool) {
	if len(s) != 16 {
		return time.Time{}, false
	}
	n, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(0, int64(n)), true
}

// segInfo is what a segment's key says.
type segInfo struct {
	seq          uint64
	at           time.Time
	salt1, salt2 uint32
	frame        uint32
}

func segmentName(i segInfo) string {
	return fmt.Sprintf("%s%016x-%d-%08x%08x-%08x", walDir, i.seq, i.at.UnixMilli(), i.salt1, i.salt2, i.frame)
}

// parseSegmentName reads "wal/<seq>-<ms>-<salts>-<frame>".
func parseSegmentName(s string) (segInfo, bool) {
	rest, found := strings.CutPrefix(s, walDir)
	if !found {
		return segInfo{}, false
	}
	f := strings.Split(rest, "-")
	if len(f) != 4 || len(f[0]) != 16 || len(f[2]) != 16 || len(f[3]) != 8 {
		return segInfo{}, false
	}
	var i segInfo
	var err error
	if i.seq, err = strconv.ParseUint(f[0], 16, 64); err != nil {
		return segInfo{}, false
	}
	ms, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return segInfo{}, false
	}
	i.at = time.UnixMilli(ms)
	salts, err := strconv.ParseUint(f[2], 16, 64)
	if err != nil {
		return segInfo{}, false
	}
	i.salt1, i.salt2 = uint32(salts>>32), uint32(salts)
	frame, err := strconv.ParseUint(f[3], 16, 32)
	if err != nil {
		return segInfo{}, false
	}
	i.frame = uint32(frame)
	return i, true
}

// Every object body is a magic, a kind byte, the payload and a CRC-32C of
// all that, so a torn or altered object is refused on restore.
const objectMagic = "dwkbk1"

// Object kinds.
const (
	kindSnapshot byte = 's'
	kindSegment  byte = 'w'
	kindConfig   byte = 'c'
	kindDeleted  byte = 'd'
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt reports an object whose checksum or framing is wrong.
var errCorrupt = errors.New("backup object is corrupt")

func encodeObject(kind byte, payload []byte) []byte {
	b := make([]byte, 0, len(objectMagic)+1+len(payload)+4)
	b = append(b, objectMagic...)
	b = append(b, kind)
	b = append(b, payload...)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func decodeObject(kind byte, b []byte) ([]byte, error) {
	n := len(objectMagic) + 1
	if len(b) < n+4 || !bytes.Equal(b[:len(objectMagic)], []byte(objectMagic)) || b[n-1] != kind {
		return nil, fmt.Errorf("%w: bad header", errCorrupt)
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return body[n:], nil
}

// encodeSegment is a WAL segment's payload: the page size and the frames.
func encodeSegment(pageSize uint32, frames []byte) []byte {
	p := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(frames)), pageSize)
	return encodeObject(kindSegment, append(p, frames...))
}

func decodeSegment(b []byte) (uint32, []byte, error) {
	p, err := decodeObject(kindSegment, b)
	if err != nil {
		return 0, nil, err
	}
	if len(p) < 4 {
		return 0, nil, fmt.Errorf("%w: short segment", errCorrupt)
	}
	return binary.BigEndian.Uint32(p), p[4:], nil
}
