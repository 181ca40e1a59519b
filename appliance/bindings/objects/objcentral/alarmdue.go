package objcentral

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/worker"
)

// candidate is a due index key.
type candidate struct {
	entry objects.AlarmEntry
	key   tuple.Key
	vs    coord.Versionstamp
}

// Due implements objects.AlarmIndex. It returns entries claimed by this
// index earlier and still claimed (the runtime skips the ones it is
// running) and claims new ones, up to limit, earliest first. A claim of
// this index on an object that has moved to another replica is given up.
func (x *AlarmIndex) Due(ctx context.Context, namespaces []string, now time.Time, limit int) ([]objects.AlarmEntry, error) {
	if len(namespaces) == 0 || limit <= 0 {
		return nil, nil
	}
	start := time.Now()
	cands, err := x.dueCandidates(ctx, namespaces, now)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	// Only a Due that finds something costs the claim round trips the
	// lookahead has to cover.
	defer func() { x.noteDue(time.Since(start)) }()
	keys := make([]tuple.Key, 0, 2*len(cands))
	for _, c := range cands {
		keys = append(keys, claimKey(c.entry.Object), lease.KeyFor(c.entry.Object.Namespace(), c.entry.Object.String()))
	}
	ents, err := x.st.GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("alarm index due: read claims: %w", err)
	}
	var leases []lease.Resolved
	if x.placer != nil {
		les := make([]coord.Entry, len(cands))
		for i := range cands {
			les[i] = ents[2*i+1]
		}
		if leases, err = x.placer.leases.Resolve(ctx, les, false); err != nil {
			return nil, fmt.Errorf("alarm index due: judge leases: %w", err)
		}
	}
	var out []objects.AlarmEntry
	var claim []candidate
	var unclaim []coord.Entry
	for i, c := range cands {
		if len(out)+len(claim) == limit {
			break
		}
		cl := ents[2*i]
		mine := cl.Exists() && string(cl.Value) == string(x.claimer)
		here := x.placer == nil || x.placer.runsHere(c.entry.Object, leases[i])
		switch {
		case mine && here:
			out = append(out, c.entry)
		case mine:
			// Claimed here, but the object has moved: let its holder
			// claim it rather than wait for the claim to expire.
			unclaim = append(unclaim, cl)
		case cl.Exists(), !here:
			// Another replica runs it, or should.
		default:
			claim = append(claim, c)
		}
	}
	if len(unclaim) > 0 {
		a := x.st.Atomic()
		for _, cl := range unclaim {
			a.Check(cl.Key, cl.Versionstamp).Delete(cl.Key)
		}
		if _, err := a.Commit(ctx); err != nil {
			return nil, fmt.Errorf("alarm index due: give up claims: %w", err)
		}
	}
	claimed, err := x.claim(ctx, claim)
	if err != nil {
		return nil, fmt.Errorf("alarm index due: claim: %w", err)
	}
	out = append(out, claimed...)
	slices.SortStableFunc(out, func(a, b objects.AlarmEntry) int { return a.At.Compare(b.At) })
	return out, nil
}

// dueCandidates lists index keys due at now of the given namespaces. It
// reads up to maxDueScan keys whatever the limit: the earliest due entries
// may all be other replicas' (a replica behind on its alarms), and this
// replica's must not wait behind them for its next poll.
func (x *AlarmIndex) dueCandidates(ctx context.Context, namespaces []string, now time.Time) ([]candidate, error) {
	page, err := x.st.List(ctx, coord.Selector{
		Prefix: tuple.Key{"alarm", "due"},
		End:    tuple.Key{"alarm", "due", now.UnixMilli() + 1},
	}, coord.ListOptions{Limit: maxDueScan})
	if err != nil {
		return nil, fmt.Errorf("alarm index due: list: %w", err)
	}
	var out []candidate
	for _, e := range page.Entries {
		if len(out) == coord.MaxGetMany/2 {
			break
		}
		c, ok := parseDue(e)
		if ok && slices.Contains(namespaces, c.entry.Object.Namespace()) {
			out = append(out, c)
		}
	}
	return out, nil
}

// parseDue decodes an index entry; malformed ones are skipped.
func parseDue(e coord.Entry) (candidate, bool) {
	if len(e.Key) != 5 {
		return candidate{}, false
	}
	at, ok1 := e.Key[2].(int64)
	ns, ok2 := e.Key[3].(string)
	idHex, ok3 := e.Key[4].(string)
	if !ok1 || !ok2 || !ok3 {
		return candidate{}, false
	}
	id, err := worker.ParseObjectID(ns, idHex)
	if err != nil {
		return candidate{}, false
	}
	var v dueValue
	if json.Unmarshal(e.Value, &v) != nil {
		return candidate{}, false
	}
	return candidate{
		entry: objects.AlarmEntry{Object: id, At: time.UnixMilli(at), Retries: v.Retries},
		key:   e.Key, vs: e.Versionstamp,
	}, true
}

// claimChunk bounds the entries claimed in one atomic operation (two
// checks each, within coord.MaxChecks).
const claimChunk = coord.MaxChecks / 2

// claim claims cs, in one atomic operation per claimChunk entries if none
// was taken since it was read, else one by one; it returns the entries it
// claimed.
func (x *AlarmIndex) claim(ctx context.Context, cs []candidate) ([]objects.AlarmEntry, error) {
	var out []objects.AlarmEntry
	for len(cs) > 0 {
		n := min(len(cs), claimChunk)
		got, err := x.claimSome(ctx, cs[:n])
		out = append(out, got...)
		if err != nil {
			return out, err
		}
		cs = cs[n:]
	}
	return out, nil
}

func (x *AlarmIndex) claimSome(ctx context.Context, cs []candidate) ([]objects.AlarmEntry, error) {
	ok, err := x.claimAll(ctx, cs)
	if err != nil {
		return nil, err
	}
	if ok {
		out := make([]objects.AlarmEntry, len(cs))
		for i, c := range cs {
			out[i] = c.entry
		}
		return out, nil
	}
	if len(cs) == 1 {
		return nil, nil
	}
	var out []objects.AlarmEntry
	for _, c := range cs {
		ok, err := x.claimAll(ctx, []candidate{c})
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, c.entry)
		}
	}
	return out, nil
}

// claimAll claims every entry of cs in one atomic operation: each index key
// must be unchanged and unclaimed.
func (x *AlarmIndex) claimAll(ctx context.Context, cs []candidate) (bool, error) {
	a := x.st.Atomic()
	for _, c := range cs {
		a.Check(c.key, c.vs).Check(claimKey(c.entry.Object), 0).Set(claimKey(c.entry.Object), x.claimer, x.visibility)
	}
	res, err := a.Commit(ctx)
	if err != nil {
		return false, err
	}
	return res.OK, nil
}

// Overdue lists up to limit alarms of any class due at now, earliest
// first, whichever replica will run them, in one round trip: the fleet
// page's view of alarms due and their lag.
func (x *AlarmIndex) Overdue(ctx context.Context, now time.Time, limit int) ([]objects.AlarmEntry, error) {
	page, err := x.st.List(ctx, coord.Selector{
		Prefix: tuple.Key{"alarm", "due"},
		End:    tuple.Key{"alarm", "due", now.UnixMilli() + 1},
	}, coord.ListOptions{Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("alarm index overdue: list: %w", err)
	}
	out := make([]objects.AlarmEntry, 0, len(page.Entries))
	for _, e := range page.Entries {
		if c, ok := parseDue(e); ok {
			out = append(out, c.entry)
		}
	}
	return out, nil
}
