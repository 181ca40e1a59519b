package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/bench/libsqlproc"
	"github.com/dwk/fleet/test/benchdocs"
)

// Defaults of the namespaces section.
const (
	nsReads       = 20_000
	nsConcurrency = 8
	nsSerialReads = 1_000
)

// benchNamespaces runs `dwk libsql` with its default budgets, creates
// o.namespaces namespaces with one write each, then reads random ones: the
// server's open files and resident memory stay bounded, and a read of a
// namespace whose connection was closed (reopen) is compared with one whose
// connection is still idle in the pool.
func benchNamespaces(ctx context.Context, o options) (Section, error) {
	srv, err := libsqlproc.Start(ctx, o.dwk)
	if err != nil {
		return Section{}, err
	}
	defer srv.Stop()
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL})
	if err != nil {
		return Section{}, err
	}
	peak := watchProcess(srv.PID())
	defer peak.stop()
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * nsConcurrency}}
	name := func(i int) string { return "ns" + strconv.Itoa(i) }
	n := o.namespaces

	start := time.Now()
	err = parallel(ctx, n, func(ctx context.Context, i int) error {
		if err := admin.Create(ctx, name(i)); err != nil {
			return err
		}
		return pipelineTo(ctx, hc, srv.URL, name(i), "CREATE TABLE t(v); INSERT INTO t VALUES (1)")
	})
	if err != nil {
		return Section{}, fmt.Errorf("create namespaces: %w", err)
	}
	created := time.Since(start)
	afterCreate := peak.now()

	err = parallel(ctx, nsReads, func(ctx context.Context, i int) error {
		return pipelineTo(ctx, hc, srv.URL, name(rand.IntN(n)), "SELECT v FROM t")
	})
	if err != nil {
		return Section{}, fmt.Errorf("random reads: %w", err)
	}
	// Serial, so that the two differ only in the reopen.
	var cold, warm []time.Duration
	for range nsSerialReads {
		for _, ns := range []string{name(rand.IntN(n)), name(0)} {
			t0 := time.Now()
			if err := pipelineTo(ctx, hc, srv.URL, ns, "SELECT v FROM t"); err != nil {
				return Section{}, fmt.Errorf("serial reads: %w", err)
			}
			if ns == name(0) {
				warm = append(warm, time.Since(t0))
			} else {
				cold = append(cold, time.Since(t0))
			}
		}
	}
	end := peak.now()
	max := peak.stop()
	coldP50, warmP50 := percentile(cold, 50), percentile(warm, 50)
	coldP99, warmP99 := percentile(cold, 99), percentile(warm, 99)
	return Section{
		Title:   "dwk libsql with many namespaces: open files, memory and the reopen cost",
		Command: "go run ./test/bench/dwkbench -only namespaces",
		Notes: fmt.Sprintf("One `dwk libsql` with its default budgets (--max-idle-connections %d, --max-streams %d). %d namespaces are created through the admin API, "+
			"each with one table and one row (one pipeline), %d at a time; then %d reads of random namespaces, %d at a time; "+
			"then %d serial pairs of reads: a random namespace (whose connection was most likely closed: a reopen) and one namespace whose connection stays idle in the pool. Open files (/proc/PID/fd) and resident memory (VmRSS) of the server process, "+
			"sampled every 100ms; peak over the whole run.", libsql.DefaultMaxIdleConns, libsql.DefaultMaxStreams, n, nsConcurrency, nsReads, nsConcurrency, nsSerialReads),
		Header: []string{"measure", "value"},
		Rows: [][]string{
			{"namespaces", strconv.Itoa(n)},
			{"created with one write each", fmt.Sprintf("%.0f/s", float64(n)/created.Seconds())},
			{"open files after creating", strconv.Itoa(afterCreate.fds)},
			{"open files, peak", strconv.Itoa(max.fds)},
			{"open files at the end", strconv.Itoa(end.fds)},
			{"resident memory after creating", mib(afterCreate.rss)},
			{"resident memory, peak", mib(max.rss)},
			{"read p50, random namespace (reopen)", fmtNs(float64(coldP50))},
			{"read p99, random namespace (reopen)", fmtNs(float64(coldP99))},
			{"read p50, namespace with an idle connection", fmtNs(float64(warmP50))},
			{"read p99, namespace with an idle connection", fmtNs(float64(warmP99))},
			{"reopen cost (difference of the p50s)", fmtNs(float64(coldP50 - warmP50))},
		},
		Figures: map[string]benchdocs.Figure{
			"fds_peak": benchdocs.Count(float64(max.fds), "files"),
			"rss_peak": benchdocs.Bytes(float64(max.rss)),
			"reopen":   benchdocs.Duration(coldP50 - warmP50),
			"cold_p50": benchdocs.Duration(coldP50),
			"cold_p99": benchdocs.Duration(coldP99),
			"warm_p50": benchdocs.Duration(warmP50),
			"warm_p99": benchdocs.Duration(warmP99),
			"count":    benchdocs.Count(float64(n), "namespaces"),
		},
	}, nil
}

// pipelineTo runs sql (statements separated by "; ") as one Hrana
// pipeline in namespace ns.
func pipelineTo(ctx context.Context, hc *http.Client, url, ns, sql string) error {
	var req hrana.PipelineRequest
	for _, s := range strings.Split(sql, "; ") {
		st := hrana.NewStmt(s)
		req.Requests = append(req.Requests, hrana.StreamRequest{Type: hrana.TypeExecute, Stmt: &st})
	}
	req.Requests = append(req.Requests, hrana.StreamRequest{Type: hrana.TypeClose})
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v2/pipeline", bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("x-namespace", ns)
	res, err := hc.Do(hr)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"type":"error"`)) {
		return fmt.Errorf("namespace %s: %s: %s", ns, res.Status, raw)
	}
	return nil
}

// parallel runs f for 0..n-1, nsConcurrency at a time, and returns the
// first error.
func parallel(ctx context.Context, n int, f func(context.Context, int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range nsConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := f(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// usage is a process's open files and resident memory.
type usage struct {
	fds int
	rss int64
}

// watcher samples a process's usage and keeps the peak.
type watcher struct {
	pid  int
	mu   sync.Mutex
	max  usage
	done chan struct{}
	wg   sync.WaitGroup
}

func watchProcess(pid int) *watcher {
	w := &watcher{pid: pid, done: make(chan struct{})}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			w.now()
			select {
			case <-w.done:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// now samples the usage (and updates the peak).
func (w *watcher) now() usage {
	var u usage
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", w.pid)); err == nil {
		u.fds = len(ents)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", w.pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				u.rss = kb << 10
			}
		}
	}
	w.mu.Lock()
	w.max.fds, w.max.rss = max(w.max.fds, u.fds), max(w.max.rss, u.rss)
	w.mu.Unlock()
	return u
}

// stop ends the sampling and returns the peak.
func (w *watcher) stop() usage {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	w.wg.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.max
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
