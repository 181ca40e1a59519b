package libsqlconformance

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/tursodatabase/libsql-client-go/libsql"
)

// goTransports are the libsql-client-go URL schemes every case runs with.
var goTransports = []string{"http", "ws"}

// openDB opens a database/sql handle through libsql-client-go.
func openDB(t *testing.T, url string, opts ...libsql.Option) *sql.DB {
	t.Helper()
	connector, err := libsql.NewConnector(url, opts...)
	if err != nil {
		t.Fatalf("libsql.NewConnector(%q): %v", url, err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { db.Close() })
	return db
}

// clientOpts returns the options that carry the target's token, if any.
func (tgt *target) clientOpts(extra ...libsql.Option) []libsql.Option {
	if tgt.token != "" {
		extra = append(extra, libsql.WithAuthToken(tgt.token))
	}
	return extra
}

// openGo opens the target's default namespace over scheme.
func openGo(t *testing.T, tgt *target, scheme string) *sql.DB {
	return openDB(t, tgt.schemeURL(scheme), tgt.clientOpts()...)
}

// TestLibsqlScheme checks that libsql:// URLs (HTTP without TLS when asked)
// reach the server.
func TestLibsqlScheme(t *testing.T) {
	tgt := startTarget(t)
	if !strings.HasPrefix(tgt.url, "http://") {
		t.Skipf("%s is not plain http", tgt.url)
	}
	db := openDB(t, "libsql://"+tgt.host(), tgt.clientOpts(libsql.WithTls(false))...)
	var got int
	if err := db.QueryRow("SELECT 40 + 2").Scan(&got); err != nil || got != 42 {
		t.Fatalf("SELECT over libsql:// = %d, %v", got, err)
	}
}

// forEachTransport runs f as a subtest per libsql-client-go transport.
func forEachTransport(t *testing.T, f func(t *testing.T, scheme string)) {
	for _, scheme := range goTransports {
		t.Run(scheme, func(t *testing.T) { f(t, scheme) })
	}
}
