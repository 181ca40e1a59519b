package r2

import (
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// CheckConditional evaluates c against the stored object cur (nil when the
// key has no object) in the order of RFC 9110 §13.2.2, and returns nil when
// the request may proceed or an error wrapping worker.ErrPreconditionFailed.
//
// EtagMatches is If-Match (strong comparison), UploadedBefore is
// If-Unmodified-Since (passes when Uploaded <= the time), EtagDoesNotMatch is
// If-None-Match (weak comparison) and UploadedAfter is If-Modified-Since
// (passes when Uploaded > the time). A date condition is skipped when the
// etag condition of the same pair is present, and when there is no object.
// Etag conditions take one tag or a comma-separated list, quoted or not;
// "*" matches any existing object. Unlike HTTP, which ignores
// If-Modified-Since on writes and answers 304 instead of 412 on reads, every
// condition applies to reads and writes alike, as in R2.
func CheckConditional(c *worker.R2Conditional, cur *worker.R2Object) error {
	if c == nil {
		return nil
	}
	switch {
	case c.EtagMatches != "":
		if cur == nil || !matchETag(c.EtagMatches, cur.ETag, false) {
			return fmt.Errorf("etagMatches %s: %w", c.EtagMatches, worker.ErrPreconditionFailed)
		}
	case !c.UploadedBefore.IsZero() && cur != nil:
		if cur.Uploaded.After(c.UploadedBefore) {
			return fmt.Errorf("uploadedBefore %s: uploaded %s: %w",
				c.UploadedBefore.Format(time.RFC3339Nano), cur.Uploaded.Format(time.RFC3339Nano), worker.ErrPreconditionFailed)
		}
	}
	switch {
	case c.EtagDoesNotMatch != "":
		if cur != nil && matchETag(c.EtagDoesNotMatch, cur.ETag, true) {
			return fmt.Errorf("etagDoesNotMatch %s: %w", c.EtagDoesNotMatch, worker.ErrPreconditionFailed)
		}
	case !c.UploadedAfter.IsZero() && cur != nil:
		if !cur.Uploaded.After(c.UploadedAfter) {
			return fmt.Errorf("uploadedAfter %s: uploaded %s: %w",
				c.UploadedAfter.Format(time.RFC3339Nano), cur.Uploaded.Format(time.RFC3339Nano), worker.ErrPreconditionFailed)
		}
	}
	return nil
}

// matchETag reports whether etag is in the comma-separated list. A strong
// comparison never matches a weak tag (RFC 9110 §8.8.3.2).
func matchETag(list, etag string, weakOK bool) bool {
	for _, tag := range strings.Split(list, ",") {
		if strings.TrimSpace(tag) == "*" {
			return true
		}
		t, weak := UnquoteETag(tag)
		if t == etag && (weakOK || !weak) {
			return true
		}
	}
	return false
}
