// Package r2test is the conformance suite for worker.R2Bucket backends. Every
// backend runs it unchanged, so that worker code sees the same R2 whether it
// is served from local files (r2local) or an S3-compatible store:
//
//	func TestConformance(t *testing.T) {
//		r2test.Run(t, func(t *testing.T) worker.R2Bucket { return openBucket(t) })
//	}
//
// The suite uses only the worker.R2Bucket API. Each subtest works under its
// own key prefix, unique per run, and deletes what it wrote, so the opener
// may hand back one shared bucket, even one that outlives the run. Keys are
// chosen so that they also work on gateways that map keys to file paths
// (such as versitygw's posix backend): no key is both an object and a
// "directory" of other keys, no path segment is longer than 255 bytes, and
// no key ends in "/". Conditions on upload times are relative to the
// Uploaded time the backend reports, so a server's clock may differ from the
// test machine's.
package r2test

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Run runs the conformance suite. open is called once per subtest and
// returns the bucket to test; the suite does not close it.
func Run(t *testing.T, open func(t *testing.T) worker.R2Bucket) {
	s := &suite{open: open, run: newRunID(t)}
	tests := []struct {
		name string
		fn   func(*testing.T)
	}{
		{"PutHeadGet", s.testPutHeadGet},
		{"Metadata", s.testMetadata},
		{"Overwrite", s.testOverwrite},
		{"NotFound", s.testNotFound},
		{"Keys", s.testKeys},
		{"InvalidKeys", s.testInvalidKeys},
		{"Checksums", s.testChecksums},
		{"Delete", s.testDelete},
		{"ConditionalGet", s.testConditionalGet},
		{"ConditionalPut", s.testConditionalPut},
		{"Ranges", s.testRanges},
		{"ListOrder", s.testListOrder},
		{"ListPrefix", s.testListPrefix},
		{"ListDelimiter", s.testListDelimiter},
		{"ListPagination", s.testListPagination},
		{"ListStartAfter", s.testListStartAfter},
		{"ListLimit", s.testListLimit},
		{"MultipartLarge", s.testMultipartLarge},
		{"MultipartSinglePart", s.testMultipartSinglePart},
		{"MultipartInvalidParts", s.testMultipartInvalidParts},
		{"MultipartReuploadPart", s.testMultipartReuploadPart},
		{"MultipartResume", s.testMultipartResume},
		{"MultipartGone", s.testMultipartGone},
		{"ConcurrentPuts", s.testConcurrentPuts},
		{"ConcurrentReadsDuringOverwrite", s.testConcurrentReadsDuringOverwrite},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.fn)
	}
}

// suite carries what every subtest needs.
type suite struct {
	open func(t *testing.T) worker.R2Bucket
	// run makes key prefixes unique per run of the suite.
	run string
}

func newRunID(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("run id: %v", err)
	}
	return hex.EncodeToString(b[:])
}

// bucket opens the bucket for t and returns it with a key prefix that only
// t uses. Everything under the prefix is deleted when t ends.
func (s *suite) bucket(t *testing.T) (worker.R2Bucket, string) {
	t.Helper()
	b := s.open(t)
	prefix := "r2test/" + s.run + "/" + strings.ReplaceAll(t.Name(), "/", ".") + "/"
	t.Cleanup(func() { cleanup(t, b, prefix) })
	return b, prefix
}

// cleanup deletes every object under prefix. It runs after t's context is
// cancelled, so it brings its own.
func cleanup(t *testing.T, b worker.R2Bucket, prefix string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		page, err := b.List(ctx, &worker.R2ListOptions{Prefix: prefix})
		if err != nil {
			t.Errorf("cleanup: list %s: %v", prefix, err)
			return
		}
		keys := make([]string, len(page.Objects))
		for i, o := range page.Objects {
			keys[i] = o.Key
		}
		if len(keys) > 0 {
			if err := b.Delete(ctx, keys...); err != nil {
				t.Errorf("cleanup: delete under %s: %v", prefix, err)
				return
			}
		}
		if !page.Truncated || len(keys) == 0 {
			return
		}
	}
}

// put stores body under key and fails the test on error.
func put(t *testing.T, b worker.R2Bucket, key string, body []byte, opts *worker.R2PutOptions) *worker.R2Object {
	t.Helper()
	o, err := b.Put(t.Context(), key, bytes.NewReader(body), opts)
	if err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
	if o == nil {
		t.Fatalf("Put(%q) returned a nil object", key)
	}
	return o
}

// head returns key's metadata and fails the test on error.
func head(t *testing.T, b worker.R2Bucket, key string) *worker.R2Object {
	t.Helper()
	o, err := b.Head(t.Context(), key)
	if err != nil {
		t.Fatalf("Head(%q): %v", key, err)
	}
	return o
}

// get returns key's object and whole body and fails the test on error.
func get(t *testing.T, b worker.R2Bucket, key string, opts *worker.R2GetOptions) (*worker.R2ObjectBody, []byte) {
	t.Helper()
	o, err := b.Get(t.Context(), key, opts)
	if err != nil {
		t.Fatalf("Get(%q, %+v): %v", key, opts, err)
	}
	if o.Body == nil {
		t.Fatalf("Get(%q) returned a nil Body", key)
	}
	return o, readAll(t, o.Body)
}

func readAll(t *testing.T, rc io.ReadCloser) []byte {
	t.Helper()
	defer rc.Close()
	body, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return body
}

// wantErr fails the test unless err wraps want.
func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: err = %v, want %v", what, err, want)
	}
}

// wantNotFound fails the test unless key has no object.
func wantNotFound(t *testing.T, b worker.R2Bucket, key string) {
	t.Helper()
	_, err := b.Head(t.Context(), key)
	wantErr(t, "Head("+key+")", err, worker.ErrNotFound)
}

func md5Hex(body []byte) string {
	sum := md5.Sum(body)
	return hex.EncodeToString(sum[:])
}

// sameUploaded allows for a backend whose Put reports its own clock while
// Head reports the server's, at second precision.
func sameUploaded(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -2*time.Second && d < 2*time.Second
}

// checkObject compares the fields every backend must report alike for the
// object stored under key with the given body.
func checkObject(t *testing.T, what string, got *worker.R2Object, key string, body []byte) {
	t.Helper()
	if got.Key != key {
		t.Errorf("%s: Key = %q, want %q", what, got.Key, key)
	}
	if got.Size != int64(len(body)) {
		t.Errorf("%s: Size = %d, want %d", what, got.Size, len(body))
	}
	if want := md5Hex(body); got.ETag != want {
		t.Errorf("%s: ETag = %q, want %q", what, got.ETag, want)
	}
	if want := `"` + got.ETag + `"`; got.HTTPETag != want {
		t.Errorf("%s: HTTPETag = %q, want %q", what, got.HTTPETag, want)
	}
	if got.Version == "" {
		t.Errorf("%s: Version is empty", what)
	}
	if got.Uploaded.IsZero() {
		t.Errorf("%s: Uploaded is zero", what)
	}
}
