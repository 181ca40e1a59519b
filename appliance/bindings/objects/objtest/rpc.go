package objtest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

var _ worker.RPCObject = (*probeObject)(nil)

// addArg and addResult are the probe's RPC types.
type addArg struct {
	By int64 `json:"by"`
}

type addResult struct {
	Sum   int64 `json:"sum"`
	Calls int64 `json:"calls"`
}

// Methods is the probe's RPC table: Add keeps a sum in storage, Refuse
// fails with a coded error, Broken with a plain one.
func (o *probeObject) Methods() worker.Methods {
	return worker.Methods{
		"Add": worker.Typed(func(ctx context.Context, a addArg) (addResult, error) {
			o.enter()
			defer o.leave()
			s := o.State.Storage
			b, err := s.Get(ctx, "rpc-sum")
			if err != nil && !errors.Is(err, worker.ErrNotFound) {
				return addResult{}, err
			}
			sum, _ := strconv.ParseInt(string(b), 10, 64)
			sum += a.By
			if err := s.Put(ctx, "rpc-sum", []byte(strconv.FormatInt(sum, 10))); err != nil {
				return addResult{}, err
			}
			return addResult{Sum: sum}, nil
		}),
		"Refuse": worker.Typed(func(_ context.Context, why string) (struct{}, error) {
			return struct{}{}, &worker.RPCError{Code: "refused", Message: why}
		}),
		"Broken": worker.Typed(func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, errors.New("it broke")
		}),
	}
}

// testRPC calls methods through stubs: results come back typed and in
// order, calls are serialized with every other event, the storage they
// write survives a restart, and errors come back as *worker.RPCError with
// their codes.
func testRPC(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	ctx := context.Background()
	s := h.stub("rpc")
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := worker.Call[addArg, addResult](ctx, s, "Add", addArg{By: 2}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	h.restart()
	s = h.stub("rpc")
	got, err := worker.Call[addArg, addResult](ctx, s, "Add", addArg{By: 1})
	if err != nil || got.Sum != 101 {
		t.Fatalf("Add after 50 concurrent Add(2) and a restart = %+v, %v; want sum 101", got, err)
	}
	var re *worker.RPCError
	_, err = worker.Call[string, struct{}](ctx, s, "Refuse", "not today")
	if !errors.As(err, &re) || re.Code != "refused" || re.Message != "not today" || re.Method != "Refuse" {
		t.Errorf("Refuse: %v, want an RPCError with code refused", err)
	}
	_, err = worker.Call[struct{}, struct{}](ctx, s, "Broken", struct{}{})
	if !errors.As(err, &re) || re.Code != worker.CodeError || re.Message != "it broke" {
		t.Errorf("Broken: %v, want an RPCError with code %s", err, worker.CodeError)
	}
	_, err = worker.Call[struct{}, struct{}](ctx, s, "Missing", struct{}{})
	if !errors.As(err, &re) || re.Code != worker.CodeNoMethod {
		t.Errorf("Missing: %v, want code %s", err, worker.CodeNoMethod)
	}
	_, err = worker.Call[string, addResult](ctx, s, "Add", "not an object")
	if !errors.As(err, &re) || re.Code != worker.CodeBadArgument {
		t.Errorf("Add with a string: %v, want code %s", err, worker.CodeBadArgument)
	}
	// A plain fetch is still a fetch.
	if n := readCountAfterIncrement(t, h, s); n != 1 {
		t.Errorf("a fetch after calls counted %d, want 1", n)
	}
	if h.probe != nil {
		h.mustCall(s, func(_ context.Context, o *probeObject) error {
			if o.overlap.Load() {
				t.Error("two events of the object ran at the same time")
			}
			return nil
		})
	}
}

func readCountAfterIncrement(t *testing.T, h *harness, s worker.Stub) int64 {
	t.Helper()
	h.mustCall(s, increment)
	return readCount(t, h, s)
}
