package libsqlconformance

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/tursodatabase/libsql-client-go/libsql"
)

func TestNamespaces(t *testing.T) {
	tgt := startTarget(t)
	key := adminKey(tgt)
	ns := uniqueName("ns")

	if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/"+ns+"/create", `{"unknown_field": 1}`, key); code != http.StatusOK {
		t.Fatalf("create %s: %d %s", ns, code, body)
	}
	if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/"+ns+"/create", "{}", key); code != http.StatusBadRequest {
		t.Errorf("create %s again: %d %s, want 400", ns, code, body)
	}
	if code, body := adminCall(t, tgt, "GET", "/v1/namespaces/"+ns+"/config", "", key); code != http.StatusOK || !strings.Contains(body, "block_writes") {
		t.Errorf("config of %s: %d %s", ns, code, body)
	}
	if tgt.managed {
		if code, body := adminCall(t, tgt, "GET", "/v1/namespaces", "", key); code != http.StatusOK || !strings.Contains(body, `"`+ns+`"`) {
			t.Errorf("list: %d %s, want %s in it", code, body, ns)
		}
		if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/Bad.Name/create", "{}", key); code != http.StatusBadRequest {
			t.Errorf("create Bad.Name: %d %s, want 400", code, body)
		}
	}

	// Three ways to address the namespace: the Host's first label over
	// HTTP and WebSocket, and sqld's x-namespace header.
	byHost := openDB(t, tgt.nsURL("http", ns), tgt.clientOpts()...)
	byWS := openDB(t, tgt.nsURL("ws", ns), tgt.clientOpts()...)
	byHeader := openDB(t, tgt.url, tgt.clientOpts(libsql.WithRequestHeaders(map[string]string{"x-namespace": ns}))...)
	def := openGo(t, tgt, "http")

	table := uniqueName("in_ns")
	mustExec(t, byHost, "CREATE TABLE "+table+" (v TEXT)")
	mustExec(t, byWS, "INSERT INTO "+table+" VALUES ('ws')")
	mustExec(t, byHeader, "INSERT INTO "+table+" VALUES ('header')")
	for name, db := range map[string]*sql.DB{"host": byHost, "ws": byWS, "header": byHeader} {
		if got := count(t, db, table); got != 2 {
			t.Errorf("via %s: %d rows, want 2", name, got)
		}
	}
	if _, err := def.Exec("SELECT * FROM " + table); err == nil || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("the default namespace sees the table of %s (err %v)", ns, err)
	}

	if code, body := adminCall(t, tgt, "DELETE", "/v1/namespaces/"+ns, "", key); code != http.StatusOK {
		t.Fatalf("delete %s: %d %s", ns, code, body)
	}
	if code, body := adminCall(t, tgt, "DELETE", "/v1/namespaces/"+ns, "", key); code != http.StatusNotFound {
		t.Errorf("delete %s again: %d %s, want 404", ns, code, body)
	}
	fresh := openDB(t, tgt.nsURL("http", ns), tgt.clientOpts()...)
	if _, err := fresh.Exec("SELECT 1"); err == nil {
		t.Errorf("query on deleted namespace %s succeeded", ns)
	}
	if _, err := byHost.Exec("SELECT count(*) FROM " + table); err == nil {
		t.Errorf("query on a stream of deleted namespace %s succeeded", ns)
	}
}
