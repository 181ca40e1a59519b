package r2local

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2/r2test"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

func TestConformance(t *testing.T) {
	r2test.Run(t, func(t *testing.T) worker.R2Bucket { return openTest(t, t.TempDir(), Options{}) })
}

func openTest(t testing.TB, dir string, opts Options) *Bucket {
	t.Helper()
	b, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

// TestUploadedBoundaries pins the exact-time edges that the suite leaves
// alone because a real server's clock cannot be controlled.
func TestUploadedBoundaries(t *testing.T) {
	at := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(at.Add(700 * time.Microsecond))
	b := openTest(t, t.TempDir(), Options{Now: clock.Now})
	ctx := t.Context()
	o, err := b.Put(ctx, "k", strings.NewReader("v"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Uploaded.Equal(at) {
		t.Fatalf("Uploaded = %v, want %v (milliseconds)", o.Uploaded, at)
	}
	tests := []struct {
		name string
		cond worker.R2Conditional
		pass bool
	}{
		{"uploadedBefore equal", worker.R2Conditional{UploadedBefore: at}, true},
		{"uploadedBefore 1ms earlier", worker.R2Conditional{UploadedBefore: at.Add(-time.Millisecond)}, false},
		{"uploadedAfter equal", worker.R2Conditional{UploadedAfter: at}, false},
		{"uploadedAfter 1ms earlier", worker.R2Conditional{UploadedAfter: at.Add(-time.Millisecond)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := b.Get(ctx, "k", &worker.R2GetOptions{OnlyIf: &tt.cond})
			if err == nil {
				got.Body.Close()
			}
			if (err == nil) != tt.pass {
				t.Errorf("Get err = %v, want pass %v", err, tt.pass)
			}
		})
	}
	clock.Set(at.Add(time.Hour))
	o2, err := b.Put(ctx, "k", strings.NewReader("v2"), &worker.R2PutOptions{OnlyIf: &worker.R2Conditional{UploadedBefore: at}})
	if err != nil {
		t.Fatalf("conditional Put: %v", err)
	}
	if want := at.Add(time.Hour); !o2.Uploaded.Equal(want) {
		t.Errorf("Uploaded = %v, want %v from the clock", o2.Uploaded, want)
	}
}

// blobFiles lists the files under dir/blobs.
func blobFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, "blobs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, d.Name())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoBlobLeaks checks that replaced, deleted, aborted and completed data
// leaves no file behind.
func TestNoBlobLeaks(t *testing.T) {
	dir := t.TempDir()
	b := openTest(t, dir, Options{})
	ctx := t.Context()
	for _, body := range []string{"1", "22", "333"} {
		if _, err := b.Put(ctx, "k", strings.NewReader(body), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Put(ctx, "gone", strings.NewReader("x"), nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	aborted, err := b.CreateMultipartUpload(ctx, "aborted", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := aborted.UploadPart(ctx, 1, strings.NewReader("p")); err != nil {
		t.Fatal(err)
	}
	if err := aborted.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	done, err := b.CreateMultipartUpload(ctx, "k", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := done.UploadPart(ctx, 2, strings.NewReader("unlisted")); err != nil {
		t.Fatal(err)
	}
	part, err := done.UploadPart(ctx, 1, strings.NewReader("p"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := done.Complete(ctx, []worker.R2UploadedPart{part})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := blobFiles(t, dir), []string{o.Version}; !equal(got, want) {
		t.Errorf("blob files = %q, want only the live object %q", got, want)
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestReopen checks that objects and open uploads survive a restart and that
// Open clears what a crash left behind.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	b, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put, err := b.Put(ctx, "kept", strings.NewReader("body"), &worker.R2PutOptions{CustomMetadata: map[string]string{"a": "b"}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := b.CreateMultipartUpload(ctx, "upload", nil)
	if err != nil {
		t.Fatal(err)
	}
	part, err := u.UploadPart(ctx, 1, strings.NewReader("part"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// What a crash leaves: a body still in tmp/ and one renamed into blobs/
	// whose index row never committed.
	stray := filepath.Join(dir, "tmp", "body-123")
	orphan := filepath.Join(dir, "blobs", "ab", "ab000000000000000000000000000000")
	for _, f := range []string{stray, orphan} {
		if err := os.WriteFile(f, []byte("torn"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	b = openTest(t, dir, Options{})
	for _, f := range []string{stray, orphan} {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s survived Open: %v", f, err)
		}
	}
	h, err := b.Head(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != put.Version || h.ETag != put.ETag || h.CustomMetadata["a"] != "b" || !h.Uploaded.Equal(put.Uploaded) {
		t.Errorf("after reopen Head = %+v, want %+v", h, put)
	}
	if _, err := b.ResumeMultipartUpload("upload", u.UploadID()).Complete(ctx, []worker.R2UploadedPart{part}); err != nil {
		t.Errorf("Complete after reopen: %v", err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	dir := t.TempDir()
	db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, "index.db"), sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if b, err := Open(dir, Options{}); err == nil {
		b.Close()
		t.Fatal("Open of a newer index: err = nil, want an error")
	} else if !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open err = %v, want it to say the index is newer", err)
	}
}

func TestCancelledPutStoresNothing(t *testing.T) {
	dir := t.TempDir()
	b := openTest(t, dir, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := b.Put(ctx, "k", strings.NewReader("body"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Put err = %v, want context.Canceled", err)
	}
	if _, err := b.Head(t.Context(), "k"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("Head err = %v, want ErrNotFound", err)
	}
	if files := blobFiles(t, dir); len(files) != 0 {
		t.Errorf("blob files = %q, want none", files)
	}
	tmp, err := os.ReadDir(filepath.Join(dir, "tmp"))
	if err != nil || len(tmp) != 0 {
		t.Errorf("tmp holds %d files (%v), want none", len(tmp), err)
	}
}
