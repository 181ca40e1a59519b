package r2local

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// benchBody is the 4 KiB body the benchmarks move.
var benchBody = bytes.Repeat([]byte("0123456789abcdef"), 256)

func BenchmarkR2Put4KiB(b *testing.B) {
	bk := openTest(b, b.TempDir(), Options{})
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

func BenchmarkR2Get4KiB(b *testing.B) {
	bk := openTest(b, b.TempDir(), Options{})
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

func BenchmarkR2Head(b *testing.B) {
	bk := openTest(b, b.TempDir(), Options{})
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
