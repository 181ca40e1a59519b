package libsqlbackup

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// TestKilledServerResumesItsGeneration kills dwk libsql with SIGKILL
// twice on the same data dir, writing before and after each restart: the
// restarted server finds where its shipping stopped (its state file is
// only rewritten at checkpoints, so it reads the bucket's listing), ships
// the rest into the same generation, and a restore holds every write.
func TestKilledServerResumesItsGeneration(t *testing.T) {
	b := newBucket(t)
	dir := filepath.Join(t.TempDir(), "data.sqld")
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	const ns = "resume"
	v := int64(0)
	var gen string
	for round := range 3 {
		s := startServer(t, b, dir)
		if round == 0 {
			if err := s.admin.Create(ctx, ns); err != nil {
				t.Fatal(err)
			}
			if _, err := s.exec(ctx, ns, "CREATE TABLE t(v INTEGER PRIMARY KEY)"); err != nil {
				t.Fatal(err)
			}
		}
		for range 20 {
			v++
			if _, err := s.exec(ctx, ns, "INSERT INTO t(v) VALUES (?)", hrana.Integer(v)); err != nil {
				t.Fatal(err)
			}
		}
		if round == 2 {
			setBlockReason(t, s, ns, "kept by the backup")
		}
		s.waitShipped(t, 5*time.Second)
		st := readState(t, dir, ns)
		if round > 0 && st.Generation != gen {
			t.Errorf("round %d: generation %s, want %s continued after the restart", round, st.Generation, gen)
		}
		gen = st.Generation
		s.proc.Kill()
	}
	to := filepath.Join(t.TempDir(), "restored")
	if _, err := restore(t, b, to); err != nil {
		t.Fatal(err)
	}
	r := startUnbacked(t, to)
	if got := checkPrefix(t, r, ns, int(v)); got != int(v) {
		t.Errorf("restored %d rows, want %d", got, v)
	}
	cfg, err := r.admin.Config(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BlockReason == nil || *cfg.BlockReason != "kept by the backup" {
		t.Errorf("restored configuration %s, want the block_reason set before the kill", cfg.Raw)
	}
}

// setBlockReason changes namespace ns's configuration through the admin
// API (block_reason only, so writes go on).
func setBlockReason(t *testing.T, s *server, ns, reason string) {
	t.Helper()
	body := fmt.Sprintf(`{"block_reason": %q}`, reason)
	resp, err := http.Post(s.adminURL+"/v1/namespaces/"+ns+"/config", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("set config: %s", resp.Status)
	}
}
