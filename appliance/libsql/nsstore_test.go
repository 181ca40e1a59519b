package libsql

import (
	"context"
	"errors"
	"github.com/dwk/fleet/test/wait"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentCreateAnswersOnceUsable: creations of one name racing
// each other all answer (created, or exists) only once the namespace can
// be used, as clients that create on first use from several replicas go
// straight on to send statements to it.
func TestConcurrentCreateAnswersOnceUsable(t *testing.T) {
	s := newNSStore(t.TempDir(), Config{}.withDefaults())
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	defer s.closeAll(t.Context())
	for round := range 20 {
		name := "race" + string(rune('a'+round))
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				created := s.create(name, nsConfig{})
				if created != nil && !errors.Is(created, errNamespaceExists) {
					t.Errorf("create %s: %v", name, created)
					return
				}
				if _, err := s.get(name); err != nil {
					t.Errorf("create %s answered %v, but the namespace cannot be used yet: %v", name, created, err)
				}
			}()
		}
		wg.Wait()
	}
}

// TestCreateFromSpare: with spares ready, creating a namespace renames one
// into place (no new directory is built while the caller waits), the
// namespace takes writes, and it is still there, with its data, after the
// store is loaded again.
func TestCreateFromSpare(t *testing.T) {
	dir := t.TempDir()
	s := newNSStore(dir, Config{SpareNamespaces: 4}.withDefaults())
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.spares.fill(ctx, t.Logf) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.spares.ready) < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 4 spares made after 10s", len(s.spares.ready))
		}
		time.Sleep(10 * time.Millisecond)
	}
	spare := <-s.spares.ready
	s.spares.ready <- spare // it goes back to the end of the queue
	if err := s.create("fromspare", nsConfig{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dbs", filepath.Base(s.spares.take()))); err != nil {
		t.Fatalf("a taken spare is not on disk: %v", err)
	}
	ns, err := s.get("fromspare")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ns.pool.get()
	if err != nil {
		t.Fatal(err)
	}
	if mode, err := queryText(c, "PRAGMA journal_mode"); err != nil || mode != "wal" {
		t.Errorf("journal mode of a namespace made from a spare = %q, %v; want wal", mode, err)
	}
	if err := c.Exec("CREATE TABLE t (x); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	ns.pool.put(c, true)
	cancel()
	<-done
	s.spares.drop()
	if err := s.closeAll(t.Context()); err != nil {
		t.Fatal(err)
	}
	again := newNSStore(dir, Config{SpareNamespaces: -1}.withDefaults())
	if err := again.load(); err != nil {
		t.Fatal(err)
	}
	defer again.closeAll(t.Context())
	ns, err = again.get("fromspare")
	if err != nil {
		t.Fatal(err)
	}
	c, err = ns.pool.get()
	if err != nil {
		t.Fatal(err)
	}
	defer ns.pool.put(c, true)
	if v, err := queryText(c, "SELECT x FROM t"); err != nil || v != "42" {
		t.Errorf("after reload: %q, %v; want 42", v, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "dbs"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left on disk after reload", e.Name())
		}
	}
}

// TestGroupSyncCoversEveryCaller: concurrent callers share syncs, and each
// returns only after a sync that started after it asked.
func TestGroupSyncCoversEveryCaller(t *testing.T) {
	var mu sync.Mutex
	var syncs int
	var started []time.Time
	g := groupSync{sync: func() error {
		mu.Lock()
		syncs++
		started = append(started, time.Now())
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		return nil
	}}
	var wg sync.WaitGroup
	const callers = 64
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			asked := time.Now()
			if err := g.Do(); err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			covered := false
			for _, s := range started {
				if !s.Before(asked) && time.Since(s) >= 5*time.Millisecond {
					covered = true
				}
			}
			if !covered {
				t.Error("Do returned before a sync that started after the call finished")
			}
		}()
	}
	wg.Wait()
	if syncs >= callers {
		t.Errorf("%d syncs for %d concurrent callers: not shared", syncs, callers)
	}
}

func TestCreatedNamespaceHasAConnectionReady(t *testing.T) {
	s := newNSStore(t.TempDir(), Config{}.withDefaults())
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	if err := s.create("warm", nsConfig{}); err != nil {
		t.Fatal(err)
	}
	ns, err := s.get("warm")
	if err != nil {
		t.Fatal(err)
	}
	idle := func() int {
		ns.pool.mu.Lock()
		defer ns.pool.mu.Unlock()
		return len(ns.pool.idle)
	}
	wait.Within(t, 10*time.Second, "a connection to the new namespace", func() bool { return idle() == 1 })
	// The first request takes it rather than open one.
	c, err := ns.pool.get()
	if err != nil {
		t.Fatal(err)
	}
	if idle() != 0 {
		t.Fatalf("%d idle connections after taking the warm one", idle())
	}
	if err := c.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	ns.pool.put(c, true)
	if err := s.closeAll(t.Context()); err != nil {
		t.Fatal(err)
	}
}
