package libsql

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/backup"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// TestBackupOwnsCheckpoints runs a server whose backup target refuses
// connections: clients may not checkpoint, the committed frames stay in
// the WAL, the backup reports them pending with a growing lag and
// failures, and shutdown says they were not shipped.
func TestBackupOwnsCheckpoints(t *testing.T) {
	dir := t.TempDir()
	s := New(Config{DBPath: dir, HTTPListenAddr: "127.0.0.1:0", BackupAllowEmpty: true, Backup: backup.Config{
		Endpoint: "http://127.0.0.1:1", Bucket: "b", AccessKey: "k", SecretKey: "s", Lag: 20 * time.Millisecond, Timeout: time.Second,
	}})
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()

	code, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(v)"), exec("INSERT INTO t VALUES (1)"),
		exec("PRAGMA wal_checkpoint(TRUNCATE)"), exec("PRAGMA wal_autocheckpoint = 10"), closeReq(),
	}}, nil)
	if code != 200 {
		t.Fatalf("pipeline: %d %s", code, raw)
	}
	for i, r := range resp.Results {
		wantErr := i == 2 || i == 3
		if got := r.Error != nil && r.Error.Code == hrana.CodeForbidden; got != wantErr {
			t.Errorf("request %d: error %+v, want FORBIDDEN %v", i, r.Error, wantErr)
		}
	}

	deadline := time.Now().Add(10 * time.Second)
	for {
		st, ok := s.BackupStatus()
		if !ok {
			t.Fatal("BackupStatus: no backup")
		}
		if st.Pending > 0 && st.Failures > 0 && st.Lag > 200*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v, want pending changes, failures and a growing lag", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fi, err := os.Stat(filepath.Join(dir, "dbs", DefaultNamespace, "data-wal")); err != nil || fi.Size() == 0 {
		t.Errorf("WAL: %v, %v; want the unshipped frames kept", fi, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.Close(ctx); err == nil || !strings.Contains(err.Error(), "not shipped") {
		t.Errorf("close: %v, want the unshipped namespaces reported", err)
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "dbs", DefaultNamespace, "data-wal")); err != nil || fi.Size() == 0 {
		t.Errorf("WAL after close: %v, %v; want it kept for the next start to ship", fi, err)
	}
}
