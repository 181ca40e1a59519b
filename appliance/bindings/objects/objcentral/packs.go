package objcentral

import (
	"context"
	"fmt"
	"sync"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// Packs are the databases objects share (layout packed): packsPerShard on
// each shard, made with their reserved tables the first time a store
// uses them. An object's rows go to its pack (packOf) on the first shard
// rendezvous hashing ranks for it, so making an object makes no database
// and takes no round trip beyond its first commit. Objects spread over
// the packs, so commits of different objects seldom wait for the same
// database's write lock.

// packs remembers which packs this store has made sure of.
type packs struct {
	mu    sync.Mutex
	packs map[string]*packState // by shard and pack name
}

// packState is one pack's: ready once made sure of; mu serialises that.
type packState struct {
	mu    sync.Mutex
	ready bool
}

// state returns the state of the pack under key.
func (p *packs) state(key string) *packState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.packs == nil {
		p.packs = map[string]*packState{}
	}
	st := p.packs[key]
	if st == nil {
		st = &packState{}
		p.packs[key] = st
	}
	return st
}

// packHome is where id's rows are in its pack on shard sh, once the pack
// exists with its reserved tables.
func (s *Store) packHome(ctx context.Context, sh Shard, id worker.ObjectID, name string) (home, error) {
	pack := packName(s.prefix, packOf(id))
	at := home{c: sh.Client.WithNamespace(pack), lay: &packed, obj: name}
	st := s.packs.state(sh.Name + "\x00" + pack)
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.ready {
		if err := setUpPack(ctx, sh, at.c); err != nil {
			return home{}, fmt.Errorf("set up pack %s on shard %s: %w", pack, sh.Name, err)
		}
		st.ready = true
	}
	return at, nil
}

// setUpPack makes pack c's database and its reserved tables unless they
// exist.
func setUpPack(ctx context.Context, sh Shard, c *hranaclient.Client) error {
	if err := sh.Admin.Create(ctx, c.Namespace()); err != nil {
		return err
	}
	stmts := make([]hrana.Stmt, len(packed.schema))
	for i, sql := range packed.schema {
		stmts[i] = hrana.NewStmt(sql)
	}
	res, err := c.Batch(ctx, chain(stmts...))
	if err != nil {
		return err
	}
	for i := range stmts {
		if e := hranaclient.StepError(res, i); e != nil {
			return e
		}
	}
	return nil
}
