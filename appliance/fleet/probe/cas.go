package probe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/marker"
)

// casTTL bounds how long a scratch key outlives a diagnose run that died
// before deleting it.
const casTTL = time.Minute

// checkCAS runs three atomic operations on a scratch key: a create that
// must win, a second create that must lose, and a delete guarded by the
// first one's versionstamp that must win.
func (p *prober) checkCAS(ctx context.Context) (string, error) {
	st, err := p.openStore(ctx)
	if err != nil {
		if errors.Is(err, marker.ErrMissing) {
			return "the coordination database is not provisioned", errSkip
		}
		return "", err
	}
	b := make([]byte, 8)
	rand.Read(b)
	key := tuple.Key{"diagnose", "cas", hex.EncodeToString(b)}
	fix := "the libSQL server must run batches with conditions in one transaction (sqld, Turso or dwk libsql); check its log"

	start := p.cfg.Now()
	first, err := st.Atomic().Check(key, 0).Set(key, []byte("1"), casTTL).Commit(ctx)
	took := p.cfg.Now().Sub(start)
	if err != nil {
		return "", p.libSQLFailed(err)
	}
	if !first.OK {
		return "", fail(ErrCAS, nil, fix, "compare-and-set on the coordination KV refused to create an absent key")
	}
	second, err := st.Atomic().Check(key, 0).Set(key, []byte("2"), casTTL).Commit(ctx)
	if err != nil {
		return "", p.libSQLFailed(err)
	}
	if second.OK {
		return "", fail(ErrCAS, nil, fix, "compare-and-set on the coordination KV overwrote a key it was told to require absent")
	}
	del, err := st.Atomic().Check(key, first.Versionstamp).Delete(key).Commit(ctx)
	if err != nil {
		return "", p.libSQLFailed(err)
	}
	if !del.OK {
		return "", fail(ErrCAS, nil, fix, "compare-and-set on the coordination KV refused a delete guarded by the key's own versionstamp")
	}
	p.report.CASLatency = took
	return fmt.Sprintf("create, conflicting create and guarded delete behaved; one commit took %s", ms(took)), nil
}
