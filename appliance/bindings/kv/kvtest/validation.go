package kvtest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/worker"
)

func testKeyValidation(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	bad := []string{"", ".", "..", strings.Repeat("k", kv.MaxKeyLen+1)}
	for _, k := range bad {
		if err := ns.Put(ctx, k, []byte("v"), nil); !errors.Is(err, worker.ErrKVKeyInvalid) {
			t.Errorf("Put(%.20q…) err = %v, want ErrKVKeyInvalid", k, err)
		}
		if _, err := ns.Get(ctx, k); !errors.Is(err, worker.ErrKVKeyInvalid) {
			t.Errorf("Get(%.20q…) err = %v, want ErrKVKeyInvalid", k, err)
		}
		if _, _, err := ns.GetWithMetadata(ctx, k); !errors.Is(err, worker.ErrKVKeyInvalid) {
			t.Errorf("GetWithMetadata(%.20q…) err = %v, want ErrKVKeyInvalid", k, err)
		}
		if err := ns.Delete(ctx, k); !errors.Is(err, worker.ErrKVKeyInvalid) {
			t.Errorf("Delete(%.20q…) err = %v, want ErrKVKeyInvalid", k, err)
		}
	}
	longest := p + strings.Repeat("k", kv.MaxKeyLen-len(p))
	mustPut(t, ns, longest, []byte("v"), nil)
	if got, err := ns.Get(ctx, longest); err != nil || string(got) != "v" {
		t.Errorf("512-byte key: Get = %q, %v", got, err)
	}
}

func testValueTooLarge(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	err := ns.Put(ctxFor(t), p+"k", make([]byte, kv.MaxValueLen+1), nil)
	if !errors.Is(err, worker.ErrKVValueTooLarge) {
		t.Errorf("Put(25 MiB + 1) err = %v, want ErrKVValueTooLarge", err)
	}
	if _, err := ns.Get(ctxFor(t), p+"k"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("rejected put stored something: %v", err)
	}
}

func testMetadataValidation(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	justFits := json.RawMessage(`"` + strings.Repeat("m", kv.MaxMetadataLen-2) + `"`)
	tooLong := json.RawMessage(`"` + strings.Repeat("m", kv.MaxMetadataLen-1) + `"`)
	for _, m := range []json.RawMessage{json.RawMessage(`{`), json.RawMessage(`nope`), tooLong} {
		err := ns.Put(ctx, p+"k", []byte("v"), &worker.KVPutOptions{Metadata: m})
		if !errors.Is(err, worker.ErrKVMetadataInvalid) {
			t.Errorf("Put(metadata %.20s…) err = %v, want ErrKVMetadataInvalid", m, err)
		}
	}
	mustPut(t, ns, p+"fits", []byte("v"), &worker.KVPutOptions{Metadata: justFits})
	if _, got, err := ns.GetWithMetadata(ctx, p+"fits"); err != nil || !jsonEqual(t, got, justFits) {
		t.Errorf("1024-byte metadata: %v", err)
	}
}

func testExpirationValidation(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	now := time.Now()
	bad := []*worker.KVPutOptions{
		{Expiration: now.Add(time.Hour), ExpirationTTL: time.Hour},
		{Expiration: now.Add(-time.Second)},
		{ExpirationTTL: -time.Second},
	}
	for _, o := range bad {
		if err := ns.Put(ctx, p+"k", []byte("v"), o); !errors.Is(err, worker.ErrKVExpiration) {
			t.Errorf("Put(%+v) err = %v, want ErrKVExpiration", o, err)
		}
	}
	if _, err := ns.Get(ctx, p+"k"); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("rejected put stored something: %v", err)
	}
}
