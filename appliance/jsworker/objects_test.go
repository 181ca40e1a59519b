package jsworker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// objectWorker loads testdata/objects with its class registered and bound
// through a real local object runtime.
func objectWorker(t testing.TB, name string, edit ...func(*jsworker.Config)) (*jsworker.Worker, *worker.Env) {
	t.Helper()
	class := jsworker.ClassName(name, "Box")
	cfg := jsworker.Config{
		Name: name, Classes: map[string]string{"Box": class},
		Bindings: jsworker.Bindings{Objects: []string{"BOX"}},
	}
	for _, e := range edit {
		e(&cfg)
	}
	w := loadB(t, "objects", cfg)
	if err := w.Register(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	idx, err := objlocal.OpenAlarmIndex(context.Background(), filepath.Join(dir, "alarms.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	var env *worker.Env
	rt := objects.New(objects.Config{
		Secret: []byte("0123456789abcdef0123456789abcdef"), Store: objlocal.NewStore(dir), Alarms: idx,
		Env: func(string) *worker.Env { return env }, Logger: jsrttest.Logger(t),
	})
	if err := rt.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	ns, err := rt.Namespace("BOX", class)
	if err != nil {
		t.Fatal(err)
	}
	env = worker.NewEnv(name, worker.Bindings{Objects: map[string]worker.ObjectNamespace{"BOX": ns}})
	return w, env
}

func get(t *testing.T, w *jsworker.Worker, env *worker.Env, method, target, body string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	w.Fetch(rec, httptest.NewRequest(method, target, strings.NewReader(body)), env)
	b, _ := io.ReadAll(rec.Result().Body)
	if rec.Code != 200 {
		t.Fatalf("%s %s: %d %s", method, target, rec.Code, b)
	}
	return string(b)
}

func TestDurableObjects(t *testing.T) {
	w, env := objectWorker(t, "objects-test")
	if got := get(t, w, env, "POST", "http://x/put?box=a", "hello"); got != "stored" {
		t.Fatalf("put: %q", got)
	}
	var v struct {
		V     string `json:"v"`
		Ready bool   `json:"ready"`
		ID    string `json:"id"`
	}
	json.Unmarshal([]byte(get(t, w, env, "GET", "http://x/get?box=a", "")), &v)
	if v.V != "hello" || !v.Ready || len(v.ID) != 64 {
		t.Errorf("get: %+v, want the stored value, the constructor's blockConcurrencyWhile done, a 64-digit id", v)
	}
	if got := get(t, w, env, "GET", "http://x/sql?box=a", ""); got != `{"s":3,"c":2}` {
		t.Errorf("sql: %s", got)
	}
	if got := get(t, w, env, "GET", "http://x/rpc?box=a", ""); got != `{"text":"box:hello","year":2024,"tags":[["a",1]],"err":"RangeError: too far"}` {
		t.Errorf("rpc: %s", got)
	}
	// A timer's write, and an alarm's, each run in the object's turn.
	get(t, w, env, "GET", "http://x/later?box=b", "")
	get(t, w, env, "GET", "http://x/alarm?box=b", "")
	wait.Within(t, 10*time.Second, "the timer's and the alarm's writes", func() bool {
		return get(t, w, env, "GET", "http://x/keys?box=b", "") == `["alarmed","later"]`
	})
}

// TestObjectRebuiltAfterIsolateRestart: an object whose event grew its
// isolate's heap past the memory limit is constructed again in the fresh
// isolate, its constructor's blockConcurrencyWhile included, and answers
// its next request from its storage.
func TestObjectRebuiltAfterIsolateRestart(t *testing.T) {
	w, env := objectWorker(t, "objects-restart", func(c *jsworker.Config) { c.MemoryLimit = 32 << 20 })
	if got := get(t, w, env, "POST", "http://x/put?box=a", "kept"); got != "stored" {
		t.Fatalf("put: %q", got)
	}
	rec := httptest.NewRecorder()
	w.Fetch(rec, httptest.NewRequest("GET", "http://x/hog?box=a", nil), env)
	if rec.Code == 200 {
		t.Fatalf("an event past the memory limit answered 200")
	}
	done := make(chan string, 1)
	go func() {
		rec := httptest.NewRecorder()
		w.Fetch(rec, httptest.NewRequest("GET", "http://x/get?box=a", nil), env)
		b, _ := io.ReadAll(rec.Result().Body)
		done <- fmt.Sprintf("%d %s", rec.Code, b)
	}()
	select {
	case got := <-done:
		var v struct {
			V     string `json:"v"`
			Ready bool   `json:"ready"`
		}
		code, body, _ := strings.Cut(got, " ")
		json.Unmarshal([]byte(body), &v)
		if code != "200" || v.V != "kept" || !v.Ready {
			t.Errorf("the object after its isolate restarted: %s; want 200 with the stored value, constructed again (ready)", got)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the object's first request after its isolate restarted did not answer in 15s")
	}
}
