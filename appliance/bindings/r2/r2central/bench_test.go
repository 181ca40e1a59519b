package r2central_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/s3server"
)

// The benchmarks mirror r2local's (BenchmarkR2Put4KiB, BenchmarkR2Get4KiB,
// BenchmarkR2Head) over versitygw on loopback, so `make bench` can report
// the central/local ratio of each.

// benchBody is the 4 KiB body the benchmarks move.
var benchBody = bytes.Repeat([]byte("0123456789abcdef"), 256)

func benchBucket(b *testing.B) worker.R2Bucket {
	srv := s3server.Start(b)
	bucket, prefix := srv.NewPrefix(b)
	return open(b, srv, bucket, prefix)
}

func BenchmarkS3Put4KiB(b *testing.B) {
	bk := benchBucket(b)
	ctx := b.Context()
	b.SetBytes(int64(len(benchBody)))
	i := 0
	for b.Loop() {
		if _, err := bk.Put(ctx, fmt.Sprintf("bench/%d", i%64), bytes.NewReader(benchBody), nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkS3Get4KiB(b *testing.B) {
	bk := benchBucket(b)
	ctx := b.Context()
	if _, err := bk.Put(ctx, "bench", bytes.NewReader(benchBody), nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		o, err := bk.Get(ctx, "bench", nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, o.Body); err != nil {
			b.Fatal(err)
		}
		o.Body.Close()
	}
}

func BenchmarkS3Head(b *testing.B) {
	bk := benchBucket(b)
	ctx := b.Context()
	if _, err := bk.Put(ctx, "bench", bytes.NewReader(benchBody), &worker.R2PutOptions{
		CustomMetadata: map[string]string{"k": "v"},
	}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := bk.Head(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
