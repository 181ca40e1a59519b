package server

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/metrics"
)

func TestObjectStoreMetricsAreExported(t *testing.T) {
	c, err := hranaclient.New(hranaclient.Config{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := libsqladmin.New(libsqladmin.Config{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := objcentral.NewStore(objcentral.StoreConfig{Shards: []objcentral.Shard{{Name: "s", Client: c, Admin: admin}}})
	if err != nil {
		t.Fatal(err)
	}
	m := metrics.New("m1")
	objectStoreMetrics(m, "m1", store)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`dwk_object_opens_total{member="m1",sync="full"} 0`,
		`dwk_object_opens_total{member="m1",sync="current"} 0`,
		`dwk_object_commits_total{member="m1"} 0`,
		`dwk_object_cache_bytes{member="m1"} 0`,
		`dwk_object_commit_streams{member="m1"} 0`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
