package counter

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
)

// serve runs the counter worker over a local-mode object runtime.
func serve(t *testing.T) http.Handler {
	t.Helper()
	dir := t.TempDir()
	alarms, err := objlocal.OpenAlarmIndex(context.Background(), filepath.Join(dir, "alarms.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	var env *worker.Env
	rt := objects.New(objects.Config{
		Secret: []byte("counter test"), Store: objlocal.NewStore(dir), Alarms: alarms,
		Env: func(string) *worker.Env { return env }, Logger: slog.New(slog.DiscardHandler),
	})
	if err := rt.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rt.Close(ctx)
		alarms.Close()
	})
	ns, err := rt.Namespace(Binding, Class)
	if err != nil {
		t.Fatal(err)
	}
	env = worker.NewEnv("counter", worker.Bindings{Objects: map[string]worker.ObjectNamespace{Binding: ns}})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { Worker{}.Fetch(w, r, env) })
}

func call(t *testing.T, h http.Handler, method, path string, out any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		t.Fatalf("%s %s: %v in %q", method, path, err, rec.Body)
	}
}

func TestNoiseRows(t *testing.T) {
	h := serve(t)
	var rows struct{ Rows []noiseRow }
	call(t, h, "GET", "/counter/n/rows", &rows)
	if len(rows.Rows) != 0 {
		t.Fatalf("rows before any noise = %v, want none", rows.Rows)
	}
	var ids [2]struct{ IDs []int64 }
	call(t, h, "POST", "/counter/n/noise", &ids[0])
	call(t, h, "POST", "/counter/n/noise", &ids[1])
	call(t, h, "GET", "/counter/n/rows", &rows)
	if got, want := len(rows.Rows), 4; got != want {
		t.Fatalf("%d rows, want %d: %+v", got, want, rows.Rows)
	}
	for i, row := range rows.Rows {
		if want := ids[i/2].IDs[i%2]; row.ID != want {
			t.Errorf("row %d: id %d, want %d", i, row.ID, want)
		}
		if len(row.Blob) != 32 || row.At == "" {
			t.Errorf("row %d: blob %q, at %q: want 16 bytes and a time", i, row.Blob, row.At)
		}
		switch {
		case i%2 == 0 && row.Ref != nil:
			t.Errorf("row %d: ref %d, want null", i, *row.Ref)
		case i%2 == 1 && (row.Ref == nil || *row.Ref != rows.Rows[i-1].ID):
			t.Errorf("row %d: ref %v, want the id of row %d (%d)", i, row.Ref, i-1, rows.Rows[i-1].ID)
		}
	}
	var counter struct{ Value int64 }
	call(t, h, "GET", "/counter/n", &counter)
	if counter.Value != 0 {
		t.Errorf("counter value %d after noise, want 0 (noise leaves the counter alone)", counter.Value)
	}
}
