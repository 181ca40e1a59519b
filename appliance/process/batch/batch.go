// Package batch runs calls that arrive together as one: while a batch is
// running, new calls queue, and the next batch takes all of them. A lone
// call runs at once, alone; under concurrency, batches grow by themselves
// to the number of calls that arrived during one batch. Nothing waits to
// fill a batch.
package batch

import (
	"context"
	"errors"
	"sync"
)

// RunFunc does the work of one batch of items (at least one, at most the
// group's size), under ctx, and returns one result and one error per item,
// in order. ctx carries the values of the first item's context, and its
// deadline is the latest of the items' deadlines (none if one has none).
type RunFunc[T, R any] func(ctx context.Context, items []T) ([]R, []error)

// Group batches the calls of Do. It is safe for concurrent use. At most
// one batch runs at a time, on a goroutine the group starts when a call
// arrives and that returns when no call is waiting.
type Group[T, R any] struct {
	run RunFunc[T, R]
	max int

	mu      sync.Mutex
	running bool
	queue   []*call[T, R]
}

type call[T, R any] struct {
	ctx     context.Context
	item    T
	res     R
	err     error
	started bool // taken into a batch (under Group.mu)
	gone    bool // its caller stopped waiting before that (under Group.mu)
	done    chan struct{}
}

// New returns a group that runs batches of at most size items (at least
// 1) with run.
func New[T, R any](size int, run RunFunc[T, R]) *Group[T, R] {
	return &Group[T, R]{run: run, max: max(size, 1)}
}

// Do adds item to the next batch and returns its result. If ctx ends
// before a batch takes the item, Do returns ctx's error and the item is
// not run. Once taken, the item's result is awaited even if ctx ends: the
// batch runs under the latest deadline of its items, so that wait is
// bounded as long as every caller's context has a deadline, and the
// caller learns what was done rather than that it cannot know.
func (g *Group[T, R]) Do(ctx context.Context, item T) (R, error) {
	c := &call[T, R]{ctx: ctx, item: item, done: make(chan struct{})}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	start := !g.running
	g.running = true
	g.mu.Unlock()
	if start {
		go g.loop()
	}
	select {
	case <-c.done:
		return c.res, c.err
	case <-ctx.Done():
	}
	g.mu.Lock()
	started := c.started
	c.gone = !started
	g.mu.Unlock()
	if !started {
		var zero R
		return zero, ctx.Err()
	}
	<-c.done
	return c.res, c.err
}

// Waiting is how many calls wait for a batch to take them.
func (g *Group[T, R]) Waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, c := range g.queue {
		if !c.gone {
			n++
		}
	}
	return n
}

// loop runs batches until no call waits.
func (g *Group[T, R]) loop() {
	for {
		batch := g.take()
		if batch == nil {
			return
		}
		g.runBatch(batch)
	}
}

// take removes the next batch from the queue, skipping calls whose callers
// left; it returns nil, and marks the group idle, when none waits.
func (g *Group[T, R]) take() []*call[T, R] {
	g.mu.Lock()
	defer g.mu.Unlock()
	var batch []*call[T, R]
	n := 0
	for _, c := range g.queue {
		if c.gone {
			n++
			continue
		}
		if len(batch) == g.max {
			break
		}
		c.started = true
		batch = append(batch, c)
		n++
	}
	g.queue = g.queue[n:]
	if len(batch) == 0 {
		g.running = false
		g.queue = nil
	}
	return batch
}

func (g *Group[T, R]) runBatch(batch []*call[T, R]) {
	ctx, cancel := batchContext(batch)
	defer cancel()
	items := make([]T, len(batch))
	for i, c := range batch {
		items[i] = c.item
	}
	res, errs := g.run(ctx, items)
	for i, c := range batch {
		switch {
		case len(res) != len(batch) || len(errs) != len(batch):
			c.err = errors.New("batch: the batch returned a result count that differs from its item count")
		default:
			c.res, c.err = res[i], errs[i]
		}
		close(c.done)
	}
}

// batchContext is the context a batch runs under: the first item's
// values, and the latest deadline of the items (none if one has none).
// It does not end when the callers' contexts are cancelled: a caller that
// leaves does not cut the others' work short.
func batchContext[T, R any](batch []*call[T, R]) (context.Context, context.CancelFunc) {
	ctx := context.WithoutCancel(batch[0].ctx)
	var latest, none = batch[0].ctx, false
	for _, c := range batch {
		d, ok := c.ctx.Deadline()
		if !ok {
			none = true
			break
		}
		if ld, _ := latest.Deadline(); d.After(ld) {
			latest = c.ctx
		}
	}
	if none {
		return context.WithCancel(ctx)
	}
	d, _ := latest.Deadline()
	return context.WithDeadline(ctx, d)
}
