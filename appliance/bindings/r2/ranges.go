package r2

import (
	"fmt"
	"strconv"

	"github.com/dwk/fleet/appliance/worker"
)

// ResolveRange turns a requested range into the absolute Offset and Length
// of the bytes to return from a body of size bytes, following RFC 9110
// §14.1.2. A nil range and the zero range select the whole body. Suffix
// selects the last Suffix bytes (all of them when the body is shorter); a
// Length that runs past the end is cut at the end. An Offset at or past the
// end, or a malformed range (negative fields, Suffix together with
// Offset/Length), yields an error wrapping worker.ErrRangeNotSatisfiable.
func ResolveRange(r *worker.R2Range, size int64) (worker.R2Range, error) {
	whole := worker.R2Range{Offset: 0, Length: size}
	if r == nil || *r == (worker.R2Range{}) {
		return whole, nil
	}
	if r.Offset < 0 || r.Length < 0 || r.Suffix < 0 {
		return worker.R2Range{}, fmt.Errorf("range %+v has a negative field: %w", *r, worker.ErrRangeNotSatisfiable)
	}
	if r.Suffix > 0 {
		if r.Offset != 0 || r.Length != 0 {
			return worker.R2Range{}, fmt.Errorf("range %+v mixes suffix with offset/length: %w", *r, worker.ErrRangeNotSatisfiable)
		}
		n := min(r.Suffix, size)
		return worker.R2Range{Offset: size - n, Length: n}, nil
	}
	if r.Offset >= size {
		return worker.R2Range{}, fmt.Errorf("range offset %d of a %d-byte object: %w", r.Offset, size, worker.ErrRangeNotSatisfiable)
	}
	n := size - r.Offset
	if r.Length > 0 {
		n = min(r.Length, n)
	}
	return worker.R2Range{Offset: r.Offset, Length: n}, nil
}

// RangeHeader renders r as an HTTP Range header value ("bytes=0-99",
// "bytes=100-", "bytes=-10"), or "" when r selects the whole body. It does
// not validate r; call ResolveRange for that once the size is known.
func RangeHeader(r *worker.R2Range) string {
	switch {
	case r == nil || *r == (worker.R2Range{}):
		return ""
	case r.Suffix > 0:
		return "bytes=-" + strconv.FormatInt(r.Suffix, 10)
	case r.Length > 0:
		return fmt.Sprintf("bytes=%d-%d", r.Offset, r.Offset+r.Length-1)
	}
	return fmt.Sprintf("bytes=%d-", r.Offset)
}
