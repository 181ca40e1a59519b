package kvlocal

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv/kvtest"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

func openStore(t *testing.T, path string, o Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func TestConformanceFilePerNamespace(t *testing.T) {
	kvtest.Run(t, func(t *testing.T) worker.KVNamespace {
		return openStore(t, filepath.Join(t.TempDir(), "ns.db"), Options{})
	})
}

// TestConformanceSharedFile runs the suite with every subtest on one file,
// through separate Stores, as several processes would share it.
func TestConformanceSharedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	// Create the file (and switch it to WAL) before the parallel subtests
	// open it: two connections making a new file WAL at once can get
	// SQLITE_BUSY without the busy timeout applying.
	openStore(t, path, Options{})
	kvtest.Run(t, func(t *testing.T) worker.KVNamespace {
		return openStore(t, path, Options{})
	})
}

func countRows(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM kv`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestInjectedClockExpiryAndSweep(t *testing.T) {
	ctx := context.Background()
	clock := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := openStore(t, filepath.Join(t.TempDir(), "ns.db"), Options{Now: clock.Now, SweepInterval: time.Hour})
	if err := s.Put(ctx, "day", []byte("v"), &worker.KVPutOptions{ExpirationTTL: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "forever", []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	clock.Advance(24*time.Hour - time.Millisecond)
	if _, err := s.Get(ctx, "day"); err != nil {
		t.Fatalf("Get 1 ms before expiry: %v", err)
	}
	if n, err := s.Sweep(ctx); err != nil || n != 0 {
		t.Fatalf("Sweep before expiry = %d, %v; want 0", n, err)
	}
	clock.Advance(time.Millisecond)
	if _, err := s.Get(ctx, "day"); !errors.Is(err, worker.ErrNotFound) {
		t.Fatalf("Get at expiry: err = %v, want ErrNotFound", err)
	}
	if got := countRows(t, s); got != 2 {
		t.Fatalf("rows before sweep = %d, want 2 (expired rows linger until swept)", got)
	}
	if n, err := s.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v; want 1", n, err)
	}
	if got := countRows(t, s); got != 1 {
		t.Errorf("rows after sweep = %d, want 1", got)
	}
}

func TestBackgroundSweeper(t *testing.T) {
	ctx := context.Background()
	clock := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := openStore(t, filepath.Join(t.TempDir(), "ns.db"), Options{Now: clock.Now, SweepInterval: 10 * time.Millisecond})
	for _, k := range []string{"a", "b", "c"} {
		if err := s.Put(ctx, k, []byte("v"), &worker.KVPutOptions{ExpirationTTL: time.Minute}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Minute)
	wait.For(t, "the background sweeper to delete expired keys", func() bool { return countRows(t, s) == 0 })
}

func TestCloseIsIdempotentAndStopsSweeper(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "ns.db"), Options{SweepInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	default:
		t.Fatal("sweeper still running after Close")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestPersistsAcrossReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ns.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "k", []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path, Options{})
	if got, err := s.Get(ctx, "k"); err != nil || string(got) != "v" {
		t.Errorf("after reopen Get = %q, %v", got, err)
	}
}
