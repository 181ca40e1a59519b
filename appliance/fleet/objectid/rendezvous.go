package objectid

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
)

// Score is the rendezvous (highest-random-weight) weight of member for id:
// the first 8 bytes, big-endian, of SHA-256(member || 0x00 || id). The
// member strings are whatever the caller ranks — replica ids for placement,
// shard URLs for object_shards — and must be spelled identically everywhere.
func Score(id ID, member string) uint64 {
	// Hashed from the stack: placement scores every member for every
	// request the front door routes by placement.
	var buf [128]byte
	b := append(buf[:0], member...)
	b = append(b, 0)
	b = append(b, id[:]...)
	sum := sha256.Sum256(b)
	return binary.BigEndian.Uint64(sum[:8])
}

// Pick returns the member with the highest Score for id, or "" when members
// is empty. Ties (practically impossible) go to the lexically smaller member.
// Adding or removing a member only moves the ids that member wins or won.
func Pick(id ID, members []string) string {
	best, bestScore := "", uint64(0)
	for i, m := range members {
		s := Score(id, m)
		if i == 0 || s > bestScore || (s == bestScore && m < best) {
			best, bestScore = m, s
		}
	}
	return best
}

// Rank returns members ordered by descending Score for id (ties by member),
// so callers can fall back to the next choice when the first is unavailable.
// Rank(id, ms)[0] == Pick(id, ms). The input slice is not modified.
func Rank(id ID, members []string) []string {
	type scored struct {
		m string
		s uint64
	}
	ss := make([]scored, len(members))
	for i, m := range members {
		ss[i] = scored{m, Score(id, m)}
	}
	sort.Slice(ss, func(i, j int) bool {
		if ss[i].s != ss[j].s {
			return ss[i].s > ss[j].s
		}
		return ss[i].m < ss[j].m
	})
	out := make([]string, len(ss))
	for i, x := range ss {
		out[i] = x.m
	}
	return out
}
