package migrate_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"slices"
	"testing"

	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
)

// multipart uploads body to b as key in parts of the given sizes and
// returns the object's ETag.
func multipart(t *testing.T, b worker.R2Bucket, key string, body []byte, sizes ...int) string {
	t.Helper()
	ctx := context.Background()
	up, err := b.CreateMultipartUpload(ctx, key, &worker.R2MultipartOptions{
		HTTPMetadata: worker.R2HTTPMetadata{ContentType: "video/mp4"}, CustomMetadata: map[string]string{"take": "2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var parts []worker.R2UploadedPart
	for n, size := range sizes {
		p, err := up.UploadPart(ctx, n+1, bytes.NewReader(body[:size]))
		if err != nil {
			t.Fatal(err)
		}
		body = body[size:]
		parts = append(parts, p)
	}
	o, err := up.Complete(ctx, parts)
	if err != nil {
		t.Fatal(err)
	}
	return o.ETag
}

// TestMultipartETagsKept: a multipart object uploaded in parts of one
// size (all but the last, as R2 requires) arrives with the same ETag,
// found by trying part sizes; one whose parts differ in size arrives with
// its body and metadata, a new ETag, and is reported.
func TestMultipartETagsKept(t *testing.T) {
	ctx := context.Background()
	src, dst := openLocal(t), openLocal(t)
	b, _ := src.R2("files")
	body := make([]byte, 20<<20)
	rand.Read(body)
	const mib = 1 << 20
	want := map[string]string{
		"uniform-6mib.bin":    multipart(t, b, "uniform-6mib.bin", body[:13*mib+7], 6*mib, 6*mib, mib+7),
		"uniform-8mib.bin":    multipart(t, b, "uniform-8mib.bin", body[:20*mib], 8*mib, 8*mib, 4*mib),
		"one-part.bin":        multipart(t, b, "one-part.bin", body[:1000], 1000),
		"uniform-odd.bin":     multipart(t, b, "uniform-odd.bin", body[:15*mib+2], 5*mib+1, 5*mib+1, 5*mib), // the even split
		"non-uniform-big.bin": multipart(t, b, "non-uniform-big.bin", body[:12*mib], 5*mib, 6*mib, mib),
	}
	res, err := migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, []migrate.Store{{Kind: migrate.KindR2, Name: "files"}}, migrate.Options{Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Verified || res[0].Copied != len(want) {
		t.Errorf("result %+v, want %d copied and verified", res[0], len(want))
	}
	if !slices.Equal(res[0].NewETags, []string{"non-uniform-big.bin"}) {
		t.Errorf("new ETags %q, want only the object with parts of different sizes", res[0].NewETags)
	}
	to, _ := dst.R2("files")
	for key, etag := range want {
		o, err := to.Get(ctx, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(o.Body)
		o.Body.Close()
		if !bytes.Equal(got, body[:len(got)]) || int64(len(got)) != o.Size || o.HTTPMetadata.ContentType != "video/mp4" || o.CustomMetadata["take"] != "2" {
			t.Errorf("%s: %d bytes, %+v, %v; want the source's body and metadata", key, len(got), o.HTTPMetadata, o.CustomMetadata)
		}
		if key != "non-uniform-big.bin" && o.ETag != etag {
			t.Errorf("%s: ETag %s, want the source's %s", key, o.ETag, etag)
		}
	}
}
