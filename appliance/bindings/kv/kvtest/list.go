package kvtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/worker"
)

func names(keys []worker.KVKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Name
	}
	return out
}

func testListOrderAndPrefix(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	// Byte order: uppercase before lowercase, multi-byte UTF-8 last, a
	// shorter key before its extensions.
	suffixes := []string{"b", "a", "B", "é", "ab", "a/2", "a/1", "z\xff", "Z"}
	for _, s := range suffixes {
		mustPut(t, ns, p+s, []byte(s), nil)
	}
	want := make([]string, len(suffixes))
	for i, s := range suffixes {
		want[i] = p + s
	}
	sort.Strings(want)

	res, err := ns.List(ctx, &worker.KVListOptions{Prefix: p})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res.Keys); !reflect.DeepEqual(got, want) || !res.ListComplete || res.Cursor != "" {
		t.Errorf("List = %q complete=%v cursor=%q; want %q complete, no cursor", got, res.ListComplete, res.Cursor, want)
	}

	res, err = ns.List(ctx, &worker.KVListOptions{Prefix: p + "a/"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(res.Keys), []string{p + "a/1", p + "a/2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("List(prefix a/) = %q, want %q", got, want)
	}
	res, err = ns.List(ctx, &worker.KVListOptions{Prefix: p + "nothing"})
	if err != nil || len(res.Keys) != 0 || !res.ListComplete {
		t.Errorf("List(no match) = %+v, %v; want empty and complete", res, err)
	}
}

func testListPagination(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	var want []string
	for i := range 23 {
		k := fmt.Sprintf("%sk%03d", p, i)
		want = append(want, k)
		mustPut(t, ns, k, []byte("v"), nil)
	}
	var got []string
	cursor := ""
	for page := 0; ; page++ {
		if page > 10 {
			t.Fatal("pagination does not terminate")
		}
		res, err := ns.List(ctx, &worker.KVListOptions{Prefix: p, Limit: 5, Cursor: cursor})
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		got = append(got, names(res.Keys)...)
		if res.ListComplete {
			if res.Cursor != "" {
				t.Errorf("complete page has cursor %q", res.Cursor)
			}
			break
		}
		if len(res.Keys) != 5 || res.Cursor == "" {
			t.Fatalf("incomplete page %d has %d keys and cursor %q; want 5 and a cursor", page, len(res.Keys), res.Cursor)
		}
		cursor = res.Cursor
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paginated keys = %q, want %q", got, want)
	}
}

func testListExactPage(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	for i := range 3 {
		mustPut(t, ns, fmt.Sprintf("%s%d", p, i), []byte("v"), nil)
	}
	res, err := ns.List(ctxFor(t), &worker.KVListOptions{Prefix: p, Limit: 3})
	if err != nil || len(res.Keys) != 3 || !res.ListComplete {
		t.Errorf("List(limit = key count) = %d keys complete=%v, %v; want 3 complete", len(res.Keys), res.ListComplete, err)
	}
}

func testListDefaultsAndErrors(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	mustPut(t, ns, p+"a", []byte("v"), nil)
	res, err := ns.List(ctx, &worker.KVListOptions{Prefix: p})
	if err != nil || len(res.Keys) != 1 {
		t.Errorf("List(limit 0) = %+v, %v; want one key", res, err)
	}
	if res, err := ns.List(ctx, nil); err != nil || res == nil {
		t.Errorf("List(nil) = %v, %v; want a page", res, err)
	}
	for _, limit := range []int{-1, kv.MaxListLimit + 1} {
		if _, err := ns.List(ctx, &worker.KVListOptions{Prefix: p, Limit: limit}); !errors.Is(err, kv.ErrListLimit) {
			t.Errorf("List(limit %d) err = %v, want ErrListLimit", limit, err)
		}
	}
	for _, c := range []string{"not a cursor!", "AA"} {
		if _, err := ns.List(ctx, &worker.KVListOptions{Prefix: p, Cursor: c}); !errors.Is(err, kv.ErrCursorInvalid) {
			t.Errorf("List(cursor %q) err = %v, want ErrCursorInvalid", c, err)
		}
	}
}

func testListMetadataAndExpiration(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	exp := time.Now().Add(time.Hour)
	mustPut(t, ns, p+"a", []byte("v"), &worker.KVPutOptions{Metadata: json.RawMessage(`{"n":1}`), Expiration: exp})
	mustPut(t, ns, p+"b", []byte("v"), nil)
	res, err := ns.List(ctxFor(t), &worker.KVListOptions{Prefix: p})
	if err != nil || len(res.Keys) != 2 {
		t.Fatalf("List = %+v, %v", res, err)
	}
	a, b := res.Keys[0], res.Keys[1]
	if !jsonEqual(t, a.Metadata, json.RawMessage(`{"n":1}`)) {
		t.Errorf("listed metadata = %s", a.Metadata)
	}
	if d := a.Expiration.Sub(exp); d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("listed Expiration = %s, want %s", a.Expiration, exp)
	}
	if b.Metadata != nil || !b.Expiration.IsZero() {
		t.Errorf("key without metadata/expiry listed as %+v", b)
	}
}

func testConcurrentPuts(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := ns.Put(ctx, fmt.Sprintf("%s%d-%d", p, w, i), []byte("v"), nil); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent Put: %v", err)
	}
	res, err := ns.List(ctx, &worker.KVListOptions{Prefix: p})
	if err != nil || len(res.Keys) != writers*each {
		t.Errorf("List after concurrent puts: %d keys, %v; want %d", len(res.Keys), err, writers*each)
	}
}
