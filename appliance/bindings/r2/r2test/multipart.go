package r2test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// minPart is the smallest part other than the last, as in S3.
const minPart = 5 << 20

// partSpec is a part body: size bytes of the pattern for seed.
type partSpec struct {
	seed uint64
	size int64
}

func (p partSpec) reader() io.Reader { return patternReader(p.seed, p.size) }

// md5Of hashes a stream.
func md5Of(t *testing.T, r io.Reader) []byte {
	t.Helper()
	h := md5.New()
	if _, err := io.Copy(h, r); err != nil {
		t.Fatalf("hash: %v", err)
	}
	return h.Sum(nil)
}

func create(t *testing.T, b worker.R2Bucket, key string, opts *worker.R2MultipartOptions) worker.R2MultipartUpload {
	t.Helper()
	u, err := b.CreateMultipartUpload(t.Context(), key, opts)
	if err != nil {
		t.Fatalf("CreateMultipartUpload(%q): %v", key, err)
	}
	if u.Key() != key || u.UploadID() == "" {
		t.Fatalf("upload Key() = %q, UploadID() = %q; want %q and an id", u.Key(), u.UploadID(), key)
	}
	return u
}

func uploadPart(t *testing.T, u worker.R2MultipartUpload, n int, body io.Reader) worker.R2UploadedPart {
	t.Helper()
	part, err := u.UploadPart(t.Context(), n, body)
	if err != nil {
		t.Fatalf("UploadPart(%d): %v", n, err)
	}
	if part.PartNumber != n || part.ETag == "" {
		t.Fatalf("UploadPart(%d) = %+v, want part %d with an ETag", n, part, n)
	}
	return part
}

func (s *suite) testMultipartLarge(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "large"
	old := put(t, b, key, []byte("replaced by the upload"), nil)
	specs := []partSpec{{1, minPart}, {2, minPart}, {3, 12345}}
	opts := &worker.R2MultipartOptions{
		HTTPMetadata:   worker.R2HTTPMetadata{ContentType: "application/x-test", CacheControl: "no-store"},
		CustomMetadata: map[string]string{"kind": "multipart"},
	}
	u := create(t, b, key, opts)
	parts := make([]worker.R2UploadedPart, len(specs))
	for _, i := range []int{1, 0, 2} { // parts may arrive in any order
		parts[i] = uploadPart(t, u, i+1, specs[i].reader())
	}
	o, err := u.Complete(t.Context(), parts)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	var size int64
	for _, sp := range specs {
		size += sp.size
	}
	wantETag := multipartETagOf(t, specs[0].reader(), specs[1].reader(), specs[2].reader())
	h := head(t, b, key)
	for what, got := range map[string]*worker.R2Object{"Complete": o, "Head": h} {
		if got.Key != key || got.Size != size || got.ETag != wantETag || got.HTTPETag != `"`+wantETag+`"` {
			t.Errorf("%s: Key %q Size %d ETag %q HTTPETag %q; want %q %d %q quoted", what, got.Key, got.Size, got.ETag, got.HTTPETag, key, size, wantETag)
		}
		if got.Version == "" || got.Version == old.Version || got.Uploaded.IsZero() {
			t.Errorf("%s: Version %q (old %q), Uploaded %v; want a new version and a time", what, got.Version, old.Version, got.Uploaded)
		}
	}
	checkHTTPMetadata(t, "Head", h.HTTPMetadata, opts.HTTPMetadata)
	if !maps.Equal(h.CustomMetadata, opts.CustomMetadata) {
		t.Errorf("Head: CustomMetadata = %v, want %v", h.CustomMetadata, opts.CustomMetadata)
	}
	g, err := b.Get(t.Context(), key, nil)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	defer g.Body.Close()
	if got, want := md5Of(t, g.Body), md5Of(t, io.MultiReader(specs[0].reader(), specs[1].reader(), specs[2].reader())); !bytes.Equal(got, want) {
		t.Errorf("Get body MD5 = %x, want %x", got, want)
	}
	// A range across the boundary of parts 1 and 2.
	r := worker.R2Range{Offset: minPart - 100, Length: 200}
	_, got := get(t, b, key, &worker.R2GetOptions{Range: &r})
	all := io.MultiReader(specs[0].reader(), specs[1].reader())
	if _, err := io.CopyN(io.Discard, all, r.Offset); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, r.Length)
	if _, err := io.ReadFull(all, want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("range across parts differs")
	}
}

func (s *suite) testMultipartSinglePart(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "single"
	u := create(t, b, key, nil)
	part := uploadPart(t, u, 1, strings.NewReader("small is fine when last"))
	o, err := u.Complete(t.Context(), []worker.R2UploadedPart{part})
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if want := multipartETagOf(t, strings.NewReader("small is fine when last")); o.ETag != want {
		t.Errorf("ETag = %q, want %q", o.ETag, want)
	}
	if _, body := get(t, b, key, nil); string(body) != "small is fine when last" {
		t.Errorf("Get = %q", body)
	}
}

func (s *suite) testMultipartInvalidParts(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "invalid"
	u := create(t, b, key, nil)
	big := partSpec{11, minPart}
	p1 := uploadPart(t, u, 1, big.reader())
	p2 := uploadPart(t, u, 2, strings.NewReader("tail"))
	p3 := uploadPart(t, u, 3, strings.NewReader("tail 2"))
	for _, n := range []int{0, -1, 10001} {
		_, err := u.UploadPart(t.Context(), n, strings.NewReader("x"))
		wantErr(t, fmt.Sprintf("UploadPart(%d)", n), err, worker.ErrInvalidPart)
	}
	wrongETag := p1
	wrongETag.ETag = md5Hex([]byte("not the part"))
	tests := []struct {
		name  string
		parts []worker.R2UploadedPart
	}{
		{"no parts", nil},
		{"wrong etag", []worker.R2UploadedPart{wrongETag, p2}},
		{"part never uploaded", []worker.R2UploadedPart{p1, {PartNumber: 4, ETag: p2.ETag}}},
		{"descending order", []worker.R2UploadedPart{p2, p1}},
		{"duplicate part", []worker.R2UploadedPart{p1, p1, p2}},
		{"small part before the last", []worker.R2UploadedPart{p1, p2, p3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := u.Complete(t.Context(), tt.parts)
			wantErr(t, "Complete", err, worker.ErrInvalidPart)
			wantNotFound(t, b, key)
		})
	}
	// A failed Complete leaves the upload open; parts not listed are dropped.
	o, err := u.Complete(t.Context(), []worker.R2UploadedPart{p1, p3})
	if err != nil {
		t.Fatalf("Complete after failures: %v", err)
	}
	if want := multipartETagOf(t, big.reader(), strings.NewReader("tail 2")); o.ETag != want {
		t.Errorf("ETag = %q, want %q", o.ETag, want)
	}
	if o.Size != big.size+int64(len("tail 2")) {
		t.Errorf("Size = %d, want %d", o.Size, big.size+int64(len("tail 2")))
	}
}

// multipartETagOf is S3's ETag of a multipart object with the given parts.
func multipartETagOf(t *testing.T, parts ...io.Reader) string {
	t.Helper()
	var sums []byte
	for _, r := range parts {
		sums = append(sums, md5Of(t, r)...)
	}
	sum := md5.Sum(sums)
	return fmt.Sprintf("%s-%d", hex.EncodeToString(sum[:]), len(parts))
}

func (s *suite) testMultipartReuploadPart(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "reupload"
	u := create(t, b, key, nil)
	first := uploadPart(t, u, 1, strings.NewReader("first try"))
	second := uploadPart(t, u, 1, strings.NewReader("second try"))
	if first.ETag == second.ETag {
		t.Fatalf("different bodies got the same part ETag %q", first.ETag)
	}
	_, err := u.Complete(t.Context(), []worker.R2UploadedPart{first})
	wantErr(t, "Complete with the replaced part", err, worker.ErrInvalidPart)
	if _, err := u.Complete(t.Context(), []worker.R2UploadedPart{second}); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if _, body := get(t, b, key, nil); string(body) != "second try" {
		t.Errorf("Get = %q, want %q", body, "second try")
	}
}

func (s *suite) testMultipartResume(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "resume"
	u := create(t, b, key, &worker.R2MultipartOptions{CustomMetadata: map[string]string{"a": "b"}})
	spec := partSpec{21, minPart}
	p1 := uploadPart(t, u, 1, spec.reader())

	r := b.ResumeMultipartUpload(key, u.UploadID())
	if r.Key() != key || r.UploadID() != u.UploadID() {
		t.Fatalf("resumed Key() = %q, UploadID() = %q; want %q, %q", r.Key(), r.UploadID(), key, u.UploadID())
	}
	p2 := uploadPart(t, r, 2, strings.NewReader("end"))
	o, err := b.ResumeMultipartUpload(key, u.UploadID()).Complete(t.Context(), []worker.R2UploadedPart{p1, p2})
	if err != nil {
		t.Fatalf("Complete on a resumed upload: %v", err)
	}
	if o.Size != spec.size+3 {
		t.Errorf("Size = %d, want %d", o.Size, spec.size+3)
	}
	if h := head(t, b, key); h.CustomMetadata["a"] != "b" {
		t.Errorf("Head: CustomMetadata = %v, want a=b from create", h.CustomMetadata)
	}
}

func (s *suite) testMultipartGone(t *testing.T) {
	b, p := s.bucket(t)
	ctx := t.Context()
	gone := func(t *testing.T, u worker.R2MultipartUpload) {
		t.Helper()
		_, err := u.UploadPart(ctx, 1, strings.NewReader("x"))
		wantErr(t, "UploadPart", err, worker.ErrNoSuchUpload)
		_, err = u.Complete(ctx, []worker.R2UploadedPart{{PartNumber: 1, ETag: md5Hex([]byte("x"))}})
		wantErr(t, "Complete", err, worker.ErrNoSuchUpload)
		wantErr(t, "Abort", u.Abort(ctx), worker.ErrNoSuchUpload)
	}
	t.Run("unknown", func(t *testing.T) {
		gone(t, b.ResumeMultipartUpload(p+"unknown", "no-such-upload-id"))
	})
	t.Run("other key", func(t *testing.T) {
		u := create(t, b, p+"mine", nil)
		defer u.Abort(ctx)
		gone(t, b.ResumeMultipartUpload(p+"not-mine", u.UploadID()))
	})
	t.Run("aborted", func(t *testing.T) {
		key := p + "aborted"
		u := create(t, b, key, nil)
		uploadPart(t, u, 1, strings.NewReader("x"))
		if err := u.Abort(ctx); err != nil {
			t.Fatalf("Abort: %v", err)
		}
		gone(t, u)
		gone(t, b.ResumeMultipartUpload(key, u.UploadID()))
		wantNotFound(t, b, key)
	})
	t.Run("completed", func(t *testing.T) {
		key := p + "completed"
		u := create(t, b, key, nil)
		part := uploadPart(t, u, 1, strings.NewReader("x"))
		if _, err := u.Complete(ctx, []worker.R2UploadedPart{part}); err != nil {
			t.Fatalf("Complete: %v", err)
		}
		gone(t, u)
		if _, body := get(t, b, key, nil); string(body) != "x" {
			t.Errorf("Get = %q, want %q", body, "x")
		}
	})
}
