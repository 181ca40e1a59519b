package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

func init() {
	queues := group{
		name:  "queues",
		about: "Work on queues, with wrangler's commands: a local data directory with --local, or a fleet's queues.",
		subs:  []subcommand{{"list", "list the queues, who sends to and consumes each, and their backlogs", runQueuesList}},
	}
	Register(Command{Name: "queues", Short: "list queues and their backlogs (wrangler's queues list)", Run: queues.run})
}

func runQueuesList(args []string, stdout, stderr io.Writer) int {
	const name = "queues list"
	fs := newFlagSet(name, "[--local [--data-dir DIR]] [--config FILE]",
		"Lists the queues the configuration's workers send to, consume and dead-letter into, and any other queue that stores\n"+
			"messages: its producers and consumers (worker names), the messages it stores (waiting, delayed and being delivered)\n"+
			"and the age of the oldest.", stderr)
	var sf storeFlags
	sf.register(fs)
	if _, code := parseArgs(fs, args, 0, 0); code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, err := sf.open(ctx, kindQueues, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	type info struct {
		producers, consumers map[string]bool
		backlog              int
		oldest               time.Duration
	}
	queues := map[string]*info{}
	get := func(q string) *info {
		if queues[q] == nil {
			queues[q] = &info{producers: map[string]bool{}, consumers: map[string]bool{}}
		}
		return queues[q]
	}
	for _, w := range t.workers {
		for _, q := range w.cfg.Bindings.Queues {
			get(q).producers[w.cfg.Name] = true
		}
		for _, c := range w.cfg.Consumers {
			get(c.Queue).consumers[w.cfg.Name] = true
			if c.DeadLetterQueue != "" {
				get(c.DeadLetterQueue)
			}
		}
	}
	backlogs, err := t.st.Broker().Backlogs(ctx)
	if err != nil {
		return fail(stderr, name, fmt.Errorf("read the backlogs of %s: %w", t.where, err))
	}
	for _, b := range backlogs {
		q := get(b.Queue)
		q.backlog, q.oldest = b.Depth, b.OldestAge
	}
	names := make([]string, 0, len(queues))
	for q := range queues {
		names = append(names, q)
	}
	sort.Strings(names)
	fmt.Fprintf(stderr, "🌀 Queues of %s:\n", t.where)
	rows := make([][]string, len(names))
	for i, q := range names {
		in := queues[q]
		oldest := ""
		if in.backlog > 0 {
			oldest = in.oldest.Round(time.Second).String()
		}
		rows[i] = []string{q, joinSet(in.producers), joinSet(in.consumers), strconv.Itoa(in.backlog), oldest}
	}
	writeTable(stdout, []string{"name", "producers", "consumers", "backlog", "oldest"}, rows)
	return 0
}

// joinSet lists a set's members, sorted, comma-separated.
func joinSet(s map[string]bool) string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
