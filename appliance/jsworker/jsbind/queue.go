package jsbind

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// Queue is the Queue object of a queue producer binding. Call it on the
// loop.
func Queue(iso *jsrt.Isolate, q worker.Queue) goja.Value {
	return construct(iso, "queueProducer", iso.Runtime().ToValue(q))
}

func installQueue(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	// qSend(queue, [[body, contentType, delaySeconds], ...], batch): body
	// is the encoded text or bytes; batch says which call it is, for the
	// errors.
	b.Set("qSend", func(c goja.FunctionCall) goja.Value {
		q, ok := c.Argument(0).Export().(worker.Queue)
		if !ok {
			panic(rt.NewTypeError("not a queue"))
		}
		batch := c.Argument(2).ToBoolean()
		op := "send"
		if batch {
			op = "sendBatch"
		}
		msgs, err := queueMessages(iso, c.Argument(1), op)
		if err != nil {
			iso.Throw(err)
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			var err error
			if batch {
				err = q.SendBatch(ctx, msgs)
			} else {
				err = q.Send(ctx, msgs[0].Body, &msgs[0].QueueSendOptions)
			}
			if err != nil {
				return nil, fmt.Errorf("Queue %s failed: %w", op, err)
			}
			return nil, nil
		})
	})
}

// queueMessages converts and checks the messages of a send against the
// limits of worker/queue.go, with errors that say which message broke
// which limit.
func queueMessages(iso *jsrt.Isolate, v goja.Value, op string) ([]worker.QueueMessage, error) {
	rt := iso.Runtime()
	var items [][]goja.Value
	if err := rt.ExportTo(v, &items); err != nil {
		return nil, jsrt.Errorf("TypeError", "%s() takes messages: %v", op, err)
	}
	switch {
	case len(items) == 0:
		return nil, jsrt.Errorf("TypeError", "%s() requires at least one message", op)
	case len(items) > worker.QueueMaxBatch:
		return nil, jsrt.Errorf("RangeError", "Queue %s failed: a batch holds at most %d messages, not %d; split it", op, worker.QueueMaxBatch, len(items))
	}
	which := func(k int) string {
		if op == "send" {
			return "the message"
		}
		return fmt.Sprintf("message %d", k)
	}
	msgs := make([]worker.QueueMessage, len(items))
	for k, it := range items {
		if len(it) != 3 {
			return nil, jsrt.Errorf("TypeError", "%s(): malformed message %d", op, k)
		}
		body, ok := bytesArg(iso, it[0])
		if !ok {
			return nil, jsrt.Errorf("TypeError", "%s(): %s has no encoded body", op, which(k))
		}
		if len(body) > worker.QueueMaxBody {
			return nil, jsrt.Errorf("RangeError", "Queue %s failed: %s is %d bytes encoded; a message holds at most %d bytes (128 KiB)", op, which(k), len(body), worker.QueueMaxBody)
		}
		msgs[k] = worker.QueueMessage{Body: body, QueueSendOptions: worker.QueueSendOptions{ContentType: it[1].String()}}
		if d := it[2]; !absent(d) {
			secs := d.ToFloat()
			max := worker.QueueMaxDelay.Seconds()
			if math.IsNaN(secs) || secs < 0 || secs > max {
				return nil, jsrt.Errorf("RangeError", "Queue %s failed: delaySeconds of %s must be from 0 to %g (12 hours), not %s", op, which(k), max, d.String())
			}
			msgs[k].Delay = time.Duration(secs * float64(time.Second))
		}
	}
	return msgs, nil
}
