package objects_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
)

// TestReleaseHandsObjectBack stops a running object and releases its
// lease; the next event claims it again.
func TestReleaseHandsObjectBack(t *testing.T) {
	placer := &fakePlacer{}
	rt := newRuntime(t, func(c *objects.Config) { c.Placer = placer })
	ns, _ := rt.Namespace("ECHO", echoClass)
	id := ns.IDFromName("released")
	ctx := context.Background()

	if got, err := rt.Release(ctx, id); got || err != nil {
		t.Fatalf("Release of an object not running = %v, %v; want false, nil", got, err)
	}
	if _, err := fetchBody(t, ns.Get(id), "http://x/"); err != nil {
		t.Fatal(err)
	}
	if got, err := rt.ReleaseName(ctx, echoClass, "released"); !got || err != nil {
		t.Fatalf("ReleaseName of a running object = %v, %v; want true, nil", got, err)
	}
	placer.mu.Lock()
	first := placer.leases[0]
	placer.mu.Unlock()
	select {
	case <-first.released:
	case <-time.After(10 * time.Second):
		t.Fatal("lease not released")
	}
	if n := rt.ActiveObjects(); n != 0 {
		t.Errorf("%d instances after Release, want 0", n)
	}
	if got, err := rt.Release(ctx, id); got || err != nil {
		t.Errorf("second Release = %v, %v; want false, nil", got, err)
	}
	if _, err := fetchBody(t, ns.Get(id), "http://x/"); err != nil {
		t.Fatal(err)
	}
	placer.mu.Lock()
	claims := placer.claims
	placer.mu.Unlock()
	if claims != 2 {
		t.Errorf("claims = %d, want 2 (the next event claims again)", claims)
	}
}

func TestReleaseNameRejectsUnknownClass(t *testing.T) {
	rt := newRuntime(t, nil)
	for _, class := range []string{"objects_test.NotRegistered", "../etc"} {
		if _, err := rt.ReleaseName(context.Background(), class, "x"); !errors.Is(err, objects.ErrUnknownClass) {
			t.Errorf("ReleaseName(%q): err = %v, want ErrUnknownClass", class, err)
		}
	}
}
