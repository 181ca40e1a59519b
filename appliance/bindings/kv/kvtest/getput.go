package kvtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func testGetMissing(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	if v, err := ns.Get(ctx, p+"missing"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("Get(missing) = %q, %v; want ErrNotFound", v, err)
	}
	if v, m, err := ns.GetWithMetadata(ctx, p+"missing"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("GetWithMetadata(missing) = %q, %s, %v; want ErrNotFound", v, m, err)
	}
}

func testPutGet(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	for _, key := range []string{p + "a", p + "ключ ü", p + "with/slash", p + "\x00nul"} {
		mustPut(t, ns, key, []byte("value of "+key), nil)
		got, err := ns.Get(ctx, key)
		if err != nil || string(got) != "value of "+key {
			t.Errorf("Get(%q) = %q, %v; want %q", key, got, err, "value of "+key)
		}
	}
	got, meta, err := ns.GetWithMetadata(ctx, p+"a")
	if err != nil || string(got) != "value of "+p+"a" || meta != nil {
		t.Errorf("GetWithMetadata = %q, %s, %v; want value and nil metadata", got, meta, err)
	}
}

func testOverwrite(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	k := p + "k"
	mustPut(t, ns, k, []byte("one"), &worker.KVPutOptions{Metadata: json.RawMessage(`{"v":1}`)})
	mustPut(t, ns, k, []byte("two"), nil)
	got, meta, err := ns.GetWithMetadata(ctx, k)
	if err != nil || string(got) != "two" || meta != nil {
		t.Errorf("after overwrite: %q, %s, %v; want \"two\", nil metadata", got, meta, err)
	}
}

func testEmptyAndBinaryValues(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	mustPut(t, ns, p+"empty", []byte{}, nil)
	mustPut(t, ns, p+"nil", nil, nil)
	for _, k := range []string{p + "empty", p + "nil"} {
		got, err := ns.Get(ctx, k)
		if err != nil || len(got) != 0 {
			t.Errorf("Get(%q) = %q, %v; want empty value", k, got, err)
		}
	}
	bin := make([]byte, 256)
	for i := range bin {
		bin[i] = byte(i)
	}
	mustPut(t, ns, p+"bin", bin, nil)
	if got, err := ns.Get(ctx, p+"bin"); err != nil || !bytes.Equal(got, bin) {
		t.Errorf("binary value did not round-trip: %x, %v", got, err)
	}
}

func testLargeValue(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	mustPut(t, ns, p+"big", big, nil)
	if got, err := ns.Get(ctxFor(t), p+"big"); err != nil || !bytes.Equal(got, big) {
		t.Errorf("1 MiB value did not round-trip: %d bytes, %v", len(got), err)
	}
}

func testMetadata(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	for i, meta := range []string{`{"a":1,"b":["x",true,null]}`, `"str"`, `42`, `null`, `[]`} {
		k := p + string(rune('a'+i))
		mustPut(t, ns, k, []byte("v"), &worker.KVPutOptions{Metadata: json.RawMessage(meta)})
		v, got, err := ns.GetWithMetadata(ctx, k)
		if err != nil || string(v) != "v" {
			t.Fatalf("GetWithMetadata(%q) = %q, %v", k, v, err)
		}
		if !jsonEqual(t, got, json.RawMessage(meta)) {
			t.Errorf("metadata of %q = %s, want %s", k, got, meta)
		}
	}
}

func testDelete(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	mustPut(t, ns, p+"k", []byte("v"), nil)
	mustPut(t, ns, p+"keep", []byte("v"), nil)
	if err := ns.Delete(ctx, p+"k"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := ns.Get(ctx, p+"k"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("Get after Delete: err = %v, want ErrNotFound", err)
	}
	if _, err := ns.Get(ctx, p+"keep"); err != nil {
		t.Errorf("Delete removed another key: %v", err)
	}
	if err := ns.Delete(ctx, p+"never-existed"); err != nil {
		t.Errorf("Delete(missing) = %v, want nil", err)
	}
}

func testCancelledContext(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ns.Put(ctx, p+"k", []byte("v"), nil); err == nil {
		t.Error("Put with cancelled context succeeded")
	}
	if _, err := ns.Get(ctx, p+"k"); err == nil || errors.Is(err, worker.ErrNotFound) {
		t.Errorf("Get with cancelled context: err = %v, want a context error", err)
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Errorf("invalid JSON %q: %v", a, err)
		return false
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Errorf("invalid JSON %q: %v", b, err)
		return false
	}
	return reflect.DeepEqual(va, vb)
}
