package queuecentral

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Settle applies settlements of deliveries from q atomically, in one round
// trip: all acks in one DELETE, retries in one UPDATE per distinct delay,
// dead-letters in one UPDATE per dead-letter queue, within one transaction
// when there is more than one statement. Each statement touches a message
// only while the settlement's receipt is its current one, so settlements
// of claims that timed out and were claimed again change nothing.
func (b *Broker) Settle(ctx context.Context, q string, settlements []queue.Settlement) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	if err := queue.ValidateSettlements(q, settlements); err != nil {
		return fmt.Errorf("settle on queue %q: %w", q, err)
	}
	if len(settlements) == 0 {
		return nil
	}
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	stmts := settleStmts(q, settlements)
	op := fmt.Sprintf("settle %d messages on queue %q", len(settlements), q)
	if len(stmts) == 1 {
		_, err := b.execute(ctx, op, stmts[0])
		return err
	}
	_, err = b.transact(ctx, op, stmts)
	return err
}

// group is the settlements that share one statement.
type group struct {
	kind  queue.SettleKind // SettleAck covers drops too
	delay int64            // retries: ms
	dlq   string           // dead-letters
	ss    []queue.Settlement
}

// settleStmts groups settlements by outcome, in order of first
// appearance, and returns one statement per group.
func settleStmts(q string, settlements []queue.Settlement) []hrana.Stmt {
	var groups []*group
	find := func(kind queue.SettleKind, delay int64, dlq string) *group {
		for _, g := range groups {
			if g.kind == kind && g.delay == delay && g.dlq == dlq {
				return g
			}
		}
		g := &group{kind: kind, delay: delay, dlq: dlq}
		groups = append(groups, g)
		return g
	}
	for _, s := range settlements {
		var g *group
		switch {
		case s.Kind == queue.SettleRetry:
			g = find(queue.SettleRetry, millis(s.Delay), "")
		case s.Kind == queue.SettleDeadLetter && s.DeadLetterQueue != "":
			g = find(queue.SettleDeadLetter, 0, s.DeadLetterQueue)
		default: // ack, or dead-letter with nowhere to go
			g = find(queue.SettleAck, 0, "")
		}
		g.ss = append(g.ss, s)
	}
	stmts := make([]hrana.Stmt, len(groups))
	for i, g := range groups {
		stmts[i] = g.stmt(q)
	}
	return stmts
}

// stmt builds the group's statement. ?1 is the queue, ?2 the group's
// parameter for retries (delay) and dead-letters (queue), then come the
// (id, receipt) pairs. The "id IN" list lets SQLite look each message up
// by its unique id (a row-value IN alone would scan the queue); the
// row-value IN then requires the receipt to match.
func (g *group) stmt(q string) hrana.Stmt {
	var action string
	args := []hrana.Value{hrana.Text(q)}
	switch g.kind {
	case queue.SettleAck:
		action = `DELETE FROM queue_messages`
	case queue.SettleRetry:
		action = `UPDATE queue_messages SET visible_at = ` + nowMS + ` + ?2, receipt = NULL`
		args = append(args, hrana.Integer(g.delay))
	case queue.SettleDeadLetter:
		action = `UPDATE queue_messages SET queue = ?2, visible_at = ` + nowMS + `, attempts = 0, receipt = NULL`
		args = append(args, hrana.Text(g.dlq))
	}
	ids := make([]string, len(g.ss))
	pairs := make([]string, len(g.ss))
	for i, s := range g.ss {
		n := len(args) + 1
		ids[i] = "?" + itoa(n)
		pairs[i] = "(?" + itoa(n) + ", ?" + itoa(n+1) + ")"
		args = append(args, hrana.Text(s.ID), hrana.Text(s.Receipt))
	}
	sql := action + ` WHERE id IN (` + strings.Join(ids, ", ") + `) AND (id, receipt) IN (VALUES ` +
		strings.Join(pairs, ", ") + `) AND queue = ?1`
	st := hrana.NewStmt(sql, args...)
	f := false
	st.WantRows = &f
	return st
}

// itoa formats a parameter number.
func itoa(i int) string { return strconv.Itoa(i) }
