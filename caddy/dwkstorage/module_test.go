package dwkstorage

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/caddyserver/caddy/v2"
)

// TestModule loads the module the way Caddy does, with the secret and the
// token as environment placeholders, and uses the storage it converts to.
func TestModule(t *testing.T) {
	db := newDatabase(t)
	t.Setenv("DWKSTORAGE_TEST_SECRET", testSecret)
	t.Setenv("DWKSTORAGE_TEST_TOKEN", db.cfg.AuthToken)
	raw, err := json.Marshal(map[string]string{
		"url": db.cfg.URL, "auth_token": "{env.DWKSTORAGE_TEST_TOKEN}", "namespace": db.cfg.Namespace,
		"secret": "{env.DWKSTORAGE_TEST_SECRET}", "lock_ttl": "2s",
	})
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	defer cancel()
	mod, err := cctx.LoadModuleByID("caddy.storage.dwk", raw)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := mod.(caddy.StorageConverter).CertMagicStorage()
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	if err := sm.Store(ctx, "acme/x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := sm.Lock(ctx, "x"); err != nil {
		t.Fatal(err)
	}

	// Another instance with the same secret, from the environment, reads
	// it: the placeholder was expanded, not used literally.
	st := db.open(t)
	k := newKV(t, st, Options{})
	if got, err := k.Load(ctx, "acme/x.json"); err != nil || !bytes.Equal(got, []byte("{}")) {
		t.Errorf("Load = %q, %v", got, err)
	}
	if h := holderOf(t, st, k, "x"); h == "" {
		t.Error("the module's lock is not held")
	}
	// Unloading the config releases the lock.
	cancel()
	if h := holderOf(t, st, k, "x"); h != "" {
		t.Errorf("lock held by %q after the config was unloaded", h)
	}
}
