package queuecentral

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/worker"
)

// Send stores msgs on q, all or none: one INSERT in one round trip, or,
// for a batch whose bodies exceed MaxRequestBytes, one transaction over a
// round trip per chunk. Each message becomes claimable Delay after the
// send by the server's clock. A message without a content type is stored
// as queue.DefaultContentType.
func (b *Broker) Send(ctx context.Context, q string, msgs []worker.QueueMessage) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	if err := queue.ValidateBatch(msgs); err != nil {
		return fmt.Errorf("send to queue %q: %w", q, err)
	}
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	ids := make([]string, len(msgs))
	for i := range msgs {
		if ids[i], err = b.token(16); err != nil {
			return fmt.Errorf("send to queue %q: %w", q, err)
		}
	}
	chunks := chunk(msgs, b.opts.MaxRequestBytes)
	op := fmt.Sprintf("send %d messages to queue %q", len(msgs), q)
	if len(chunks) == 1 {
		_, err := b.execute(ctx, op, insertStmt(q, msgs, ids))
		return err
	}
	return b.sendChunks(ctx, op, q, msgs, ids, chunks)
}

// chunk splits msgs into runs of at most max body bytes (a message larger
// than max is a run of its own); it returns the end index of each run.
func chunk(msgs []worker.QueueMessage, max int) []int {
	var ends []int
	size := 0
	for i, m := range msgs {
		if i > 0 && size+len(m.Body) > max {
			ends = append(ends, i)
			size = 0
		}
		size += len(m.Body)
	}
	return append(ends, len(msgs))
}

// sendChunks inserts the chunks inside one interactive transaction, one
// round trip per chunk; the first carries BEGIN IMMEDIATE and the last
// COMMIT. Any failure closes the stream, which rolls the transaction back.
func (b *Broker) sendChunks(ctx context.Context, op, q string, msgs []worker.QueueMessage, ids []string, ends []int) error {
	s := b.c.Stream()
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.opts.Timeout)
		defer cancel()
		s.Close(cctx) // rolls back unless COMMIT ran
	}()
	start := 0
	for i, end := range ends {
		var stmts []hrana.Stmt
		if i == 0 {
			stmts = append(stmts, hrana.NewStmt(`BEGIN IMMEDIATE`))
		}
		stmts = append(stmts, insertStmt(q, msgs[start:end], ids[start:end]))
		if i == len(ends)-1 {
			stmts = append(stmts, hrana.NewStmt(`COMMIT`))
		}
		if err := runAll(ctx, s.Batch, stmts); err != nil {
			return fmt.Errorf("%s: chunk %d of %d: %w", op, i+1, len(ends), err)
		}
		start = end
	}
	return nil
}

// insertStmt is one multi-row INSERT of msgs with ids; SQLite reads the
// clock once per statement, so the rows share one sent_at.
//
//	INSERT INTO queue_messages (queue, id, body, content_type, sent_at, visible_at)
//	VALUES (?1, ?2, ?3, ?4, now, now + ?5), (?1, ?6, …), …
func insertStmt(q string, msgs []worker.QueueMessage, ids []string) hrana.Stmt {
	var sql strings.Builder
	sql.Grow(64 + len(msgs)*(len(nowMS)*2+40))
	sql.WriteString(`INSERT INTO queue_messages (queue, id, body, content_type, sent_at, visible_at) VALUES `)
	args := make([]hrana.Value, 0, 1+4*len(msgs))
	args = append(args, hrana.Text(q))
	for i, m := range msgs {
		if i > 0 {
			sql.WriteString(", ")
		}
		n := 2 + 4*i
		fmt.Fprintf(&sql, "(?1, ?%d, ?%d, ?%d, %s, %s + ?%d)", n, n+1, n+2, nowMS, nowMS, n+3)
		ct := m.ContentType
		if ct == "" {
			ct = queue.DefaultContentType
		}
		args = append(args, hrana.Text(ids[i]), hrana.Blob(m.Body), hrana.Text(ct), hrana.Integer(millis(m.Delay)))
	}
	st := hrana.NewStmt(sql.String(), args...)
	f := false
	st.WantRows = &f
	return st
}

// millis rounds d up to whole milliseconds.
func millis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
