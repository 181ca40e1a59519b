package jsworker

import (
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/worker"
)

// newController is the ScheduledController of a cron tick.
func newController(st *isoState, rt *goja.Runtime, ev worker.ScheduledEvent) goja.Value {
	mk, _ := goja.AssertFunction(st.iso.Internal().Get("scheduledController"))
	v, err := mk(goja.Undefined(), rt.ToValue(ev.ScheduledTime.UnixMilli()), rt.ToValue(ev.Cron))
	if err != nil {
		panic(err)
	}
	return v
}

// newBatch is the MessageBatch of a queue delivery; ack and retry decide
// on the host's messages.
func newBatch(st *isoState, rt *goja.Runtime, b *worker.MessageBatch) (goja.Value, error) {
	in := st.iso.Internal()
	msg, _ := goja.AssertFunction(in.Get("queueMessage"))
	batch, _ := goja.AssertFunction(in.Get("messageBatch"))
	msgs := make([]any, len(b.Messages))
	for k, m := range b.Messages {
		v, err := msg(goja.Undefined(), rt.ToValue(m), rt.ToValue(m.ID), rt.ToValue(m.Timestamp.UnixMilli()),
			st.iso.NewUint8Array(append([]byte(nil), m.Body...)), rt.ToValue(m.ContentType), rt.ToValue(m.Attempts))
		if err != nil {
			return nil, err
		}
		msgs[k] = v
	}
	return batch(goja.Undefined(), rt.ToValue(b), rt.ToValue(b.Queue), rt.NewArray(msgs...))
}

// installQueueNatives adds ack and retry for messages and batches.
func installQueueNatives(rt *goja.Runtime, cf *goja.Object) {
	delay := func(v goja.Value) time.Duration {
		return time.Duration(v.ToFloat() * float64(time.Second))
	}
	cf.Set("ack", func(c goja.FunctionCall) goja.Value {
		if m, ok := c.Argument(0).Export().(*worker.Message); ok {
			m.Ack()
		}
		return goja.Undefined()
	})
	cf.Set("retry", func(c goja.FunctionCall) goja.Value {
		if m, ok := c.Argument(0).Export().(*worker.Message); ok {
			m.Retry(delay(c.Argument(1)))
		}
		return goja.Undefined()
	})
	cf.Set("ackAll", func(c goja.FunctionCall) goja.Value {
		if b, ok := c.Argument(0).Export().(*worker.MessageBatch); ok {
			b.AckAll()
		}
		return goja.Undefined()
	})
	cf.Set("retryAll", func(c goja.FunctionCall) goja.Value {
		if b, ok := c.Argument(0).Export().(*worker.MessageBatch); ok {
			b.RetryAll(delay(c.Argument(1)))
		}
		return goja.Undefined()
	})
}
