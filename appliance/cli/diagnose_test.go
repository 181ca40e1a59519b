package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
)

func TestLibSQLBackupLine(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"on", "# HELP x\ndwk_libsql_backup_enabled 1\ndwk_libsql_backup_lag_seconds 0.25\ndwk_libsql_backup_pending_namespaces 3\n" +
			"dwk_libsql_backup_failures_total 2\ndwk_libsql_backup_last_snapshot_timestamp_seconds 1.79999994e+09\n", 200,
			"libSQL backup: lag 250ms, 3 namespaces pending, 2 failed uploads, last snapshot 2027-01-15T07:59:00Z (1m0s ago)"},
		{"off", "dwk_libsql_backup_enabled 0\n", 200, "libSQL backup: off"},
		{"sqld", "not found", 404, "libSQL backup: unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/metrics" || r.Header.Get("Authorization") != "Basic key" {
					http.Error(w, "bad request", 400)
					return
				}
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.URL, AdminKey: "key"})
			if err != nil {
				t.Fatal(err)
			}
			if got := libsqlBackupLine(context.Background(), admin, now); !strings.HasPrefix(got, c.want) {
				t.Errorf("got %q, want prefix %q", got, c.want)
			}
		})
	}
}
