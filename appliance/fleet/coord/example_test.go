package coord_test

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// A compare-and-swap loop: read, check the versionstamp just read, write.
// Each Commit is one round trip; a lost race returns OK=false, not an
// error.
func Example_compareAndSwap() {
	ctx := context.Background()
	c, err := hranaclient.New(hranaclient.Config{URL: "http://127.0.0.1:8080", Namespace: coord.NamespaceFor("prod")})
	if err != nil {
		panic(err)
	}
	s, err := coord.Open(ctx, c, coord.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close(ctx)

	key := tuple.Key{"member", "replica-1"}
	for {
		e, err := s.Get(ctx, key)
		if err != nil {
			panic(err)
		}
		res, err := s.Atomic().Check(key, e.Versionstamp).Set(key, []byte("ready"), 0).Commit(ctx)
		if err != nil {
			panic(err) // errors.Is(err, coord.ErrOutcomeUnknown): re-read before retrying
		}
		if res.OK {
			fmt.Println("written at", res.Versionstamp)
			return
		}
	}
}
