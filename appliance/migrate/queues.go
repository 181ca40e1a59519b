package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

// queueKind copies a queue's backlog message by message, in the source's
// order (its keys are "<position>/<id>", copied one at a time), each with
// its id, which the destination keeps: it remembers every id it imported,
// so a message copied before is skipped even after a consumer took it,
// and nothing is sent twice. A message's remaining delay moves with it;
// its attempts do not (at-least-once delivery allows it).
type queueKind struct {
	name     string
	src, dst queue.Mover
	// msgs are the source's messages, by key, and keys the keys of their
	// ids; read by entries.
	msgs map[string]queue.Stored
	keys map[string]string
}

// sequential implements ordered.
func (k *queueKind) sequential() {}

func (k *queueKind) entries(ctx context.Context, from bool) (map[string]entry, error) {
	out := map[string]entry{}
	if !from {
		imported, err := k.dst.Imported(ctx, k.name)
		if err != nil {
			return nil, err
		}
		for _, m := range imported {
			key, ok := k.keys[m.ID]
			if !ok {
				continue // not the source's
			}
			out[key] = entry{digest: hex.EncodeToString(m.BodySHA256) + " " + m.ContentType, size: int64(len(k.msgs[key].Body))}
		}
		return out, nil
	}
	backlog, err := k.src.Backlog(ctx, k.name)
	if err != nil {
		return nil, err
	}
	k.msgs, k.keys = map[string]queue.Stored{}, map[string]string{}
	for i, m := range backlog {
		key := fmt.Sprintf("%012d/%s", i, m.ID)
		k.msgs[key], k.keys[m.ID] = m, key
		sum := sha256.Sum256(m.Body)
		out[key] = entry{digest: hex.EncodeToString(sum[:]) + " " + m.ContentType, size: int64(len(m.Body))}
	}
	return out, nil
}

func (k *queueKind) copy(ctx context.Context, key string, _ bool) error {
	return k.dst.Import(ctx, k.name, []queue.Stored{k.msgs[key]})
}
