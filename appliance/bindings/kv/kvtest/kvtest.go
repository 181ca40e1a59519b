// Package kvtest is the conformance suite every Workers KV backend must pass
// unchanged. It uses only the public worker.KVNamespace API, so it runs the
// same against a local SQLite namespace and a central libSQL one.
//
// Each subtest writes only keys under its own unique prefix, so open may
// return the same shared namespace every time, even one that outlives the
// test run. Expiry tests use real TTLs of one to two seconds and poll with a
// deadline; the whole suite takes a few seconds.
package kvtest

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Run runs the suite. open is called once per subtest and must return a
// namespace ready for use; it registers its own cleanup with t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) worker.KVNamespace) {
	h := &harness{open: open, run: time.Now().UnixNano()}
	tests := []struct {
		name string
		fn   func(t *testing.T, h *harness)
	}{
		{"GetMissing", testGetMissing},
		{"PutGet", testPutGet},
		{"GetMany", testGetMany},
		{"GetManyExpired", testGetManyExpired},
		{"TypedGet", testTypedGet},
		{"Overwrite", testOverwrite},
		{"EmptyAndBinaryValues", testEmptyAndBinaryValues},
		{"LargeValue", testLargeValue},
		{"Metadata", testMetadata},
		{"Delete", testDelete},
		{"KeyValidation", testKeyValidation},
		{"ValueTooLarge", testValueTooLarge},
		{"MetadataValidation", testMetadataValidation},
		{"ExpirationValidation", testExpirationValidation},
		{"ExpirationTTL", testExpirationTTL},
		{"ExpirationAbsolute", testExpirationAbsolute},
		{"PutClearsExpiration", testPutClearsExpiration},
		{"ListOrderAndPrefix", testListOrderAndPrefix},
		{"ListPagination", testListPagination},
		{"ListExactPage", testListExactPage},
		{"ListDefaultsAndErrors", testListDefaultsAndErrors},
		{"ListMetadataAndExpiration", testListMetadataAndExpiration},
		{"ConcurrentPuts", testConcurrentPuts},
		{"CancelledContext", testCancelledContext},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, h)
		})
	}
}

type harness struct {
	open func(t *testing.T) worker.KVNamespace
	run  int64
	seq  atomic.Int64
}

// setup opens a namespace and returns a key prefix no other subtest, and no
// earlier run, uses.
func (h *harness) setup(t *testing.T) (worker.KVNamespace, string) {
	t.Helper()
	ns := h.open(t)
	name := strings.NewReplacer("/", ".", " ", "_").Replace(t.Name())
	return ns, fmt.Sprintf("kvtest.%d.%d.%s/", h.run, h.seq.Add(1), name)
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustPut(t *testing.T, ns worker.KVNamespace, key string, value []byte, opts *worker.KVPutOptions) {
	t.Helper()
	if err := ns.Put(ctxFor(t), key, value, opts); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}
