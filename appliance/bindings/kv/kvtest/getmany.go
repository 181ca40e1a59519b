package kvtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func testGetMany(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	var keys []string
	for i := range worker.KVMaxGetMany - 1 {
		k := fmt.Sprintf("%sk%03d", p, i)
		keys = append(keys, k)
		var opts *worker.KVPutOptions
		if i == 7 {
			opts = &worker.KVPutOptions{Metadata: json.RawMessage(`{"n":7}`)}
		}
		mustPut(t, ns, k, []byte("v"+k), opts)
	}
	got, err := ns.GetMany(ctx, append(keys, p+"missing"))
	if err != nil {
		t.Fatalf("GetMany of %d keys: %v", worker.KVMaxGetMany, err)
	}
	if len(got) != len(keys) {
		t.Errorf("GetMany returned %d entries, want %d", len(got), len(keys))
	}
	if _, ok := got[p+"missing"]; ok {
		t.Error("GetMany returned a missing key")
	}
	if e := got[keys[7]]; string(e.Value) != "v"+keys[7] || string(e.Metadata) != `{"n":7}` {
		t.Errorf("GetMany[%s] = %q, %s; want its value and metadata", keys[7], e.Value, e.Metadata)
	}
	if e := got[keys[8]]; string(e.Value) != "v"+keys[8] || e.Metadata != nil {
		t.Errorf("GetMany[%s] = %q, %s; want its value and no metadata", keys[8], e.Value, e.Metadata)
	}
	if m, err := ns.GetMany(ctx, nil); err != nil || len(m) != 0 {
		t.Errorf("GetMany(nil) = %v, %v; want empty", m, err)
	}
	over := append(append([]string{}, keys...), p+"x", p+"y")
	if _, err := ns.GetMany(ctx, over); !errors.Is(err, worker.ErrKVTooManyKeys) || !strings.Contains(err.Error(), "101 keys") {
		t.Errorf("GetMany of 101 keys: %v, want ErrKVTooManyKeys naming the count", err)
	}
	if _, err := ns.GetMany(ctx, []string{p + "ok", ""}); !errors.Is(err, worker.ErrKVKeyInvalid) {
		t.Errorf("GetMany with an empty key: %v, want ErrKVKeyInvalid", err)
	}
}

func testGetManyExpired(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	mustPut(t, ns, p+"stays", []byte("1"), nil)
	mustPut(t, ns, p+"goes", []byte("2"), &worker.KVPutOptions{ExpirationTTL: time.Second})
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := ns.GetMany(ctx, []string{p + "stays", p + "goes"})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got[p+"goes"]; !ok {
			if _, ok := got[p+"stays"]; !ok {
				t.Fatal("GetMany lost a key without expiry")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("an expired key is still returned by GetMany 10s after its 1s TTL")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type typed struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func testTypedGet(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	if err := worker.KVPutJSON(ctx, ns, p+"j", typed{Name: "a", Count: 3}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := worker.KVGetJSON[typed](ctx, ns, p+"j")
	if err != nil || got != (typed{Name: "a", Count: 3}) {
		t.Errorf("KVGetJSON = %+v, %v", got, err)
	}
	mustPut(t, ns, p+"t", []byte("héllo"), nil)
	if s, err := worker.KVGetText(ctx, ns, p+"t"); err != nil || s != "héllo" {
		t.Errorf("KVGetText = %q, %v", s, err)
	}
	if _, err := worker.KVGetJSON[typed](ctx, ns, p+"t"); err == nil || !strings.Contains(err.Error(), p+"t") {
		t.Errorf("KVGetJSON of text = %v, want a JSON error naming the key", err)
	}
	if _, err := worker.KVGetJSON[typed](ctx, ns, p+"missing"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("KVGetJSON of a missing key = %v, want ErrNotFound", err)
	}
	if _, err := worker.KVGetText(ctx, ns, p+"missing"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("KVGetText of a missing key = %v, want ErrNotFound", err)
	}
	many, err := worker.KVGetManyJSON[typed](ctx, ns, []string{p + "j", p + "missing"})
	if err != nil || len(many) != 1 || many[p+"j"].Count != 3 {
		t.Errorf("KVGetManyJSON = %+v, %v", many, err)
	}
}
