package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/appliance/server/tail"
)

func init() {
	Register(Command{Name: "tail", Short: "live requests and logs of a worker, from every replica (wrangler's tail)", Run: runTail})
}

// runTail is dwk tail [WORKER]: the replicas' events (package tail) as
// JSON lines or one readable line each, until interrupted or --duration.
func runTail(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dwk tail [WORKER] --admin URL [flags]\n\nLive requests of a worker (every worker without WORKER), with what they logged, from every replica of the fleet behind --admin.")
		fs.PrintDefaults()
	}
	var a adminFlags
	a.register(fs)
	var status, methods multiFlag
	fs.Var(&status, "status", "keep invocations whose outcome is ok or error (repeatable)")
	fs.Var(&methods, "method", "keep requests with this method (repeatable)")
	search := fs.String("search", "", "keep invocations whose URL or a log line holds this text")
	rate := fs.Float64("sampling-rate", 1, "the share of invocations to show, above 0 and at most 1")
	format := fs.String("format", "json", "json (one event per line, as wrangler tail --format json) or pretty")
	fleet := fs.Bool("fleet", true, "ask the --admin replica for every member's events too (with one --admin URL)")
	duration := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	worker, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		worker, rest = args[0], args[1:]
	}
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dwk tail: unexpected %q: give the worker first, then the flags\n", fs.Arg(0))
		return 2
	}
	switch {
	case len(a.urls) == 0:
		fmt.Fprintln(stderr, "dwk tail: give the --admin URL of a replica (its listen.admin)")
		return 2
	case *fleet && len(a.urls) > 1:
		fmt.Fprintln(stderr, "dwk tail: with --fleet (the default) give one --admin URL: that replica relays the others; or give each replica's with --fleet=false")
		return 2
	case *format != "json" && *format != "pretty":
		fmt.Fprintf(stderr, "dwk tail: --format %q: give json or pretty\n", *format)
		return 2
	}
	f := tail.Filter{Worker: worker, Status: status, Methods: methods, Search: *search}
	if *rate < 1 {
		f.SamplingRate = *rate
	}
	q := f.Query()
	if _, err := tail.ParseFilter(q); err != nil || *rate <= 0 || *rate > 1 {
		if err == nil {
			err = fmt.Errorf("--sampling-rate %v: give a number above 0 and at most 1", *rate)
		}
		fmt.Fprintln(stderr, "dwk tail:", err)
		return 2
	}
	if *fleet {
		q.Set("fleet", "1")
	}
	ctx, stop := commandContext()
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	client, err := a.httpClient()
	if err != nil {
		fmt.Fprintln(stderr, "dwk tail:", err)
		return 1
	}
	// A stream has no overall deadline: it lasts as long as the tail.
	stream := &http.Client{Transport: client.Transport}
	p := &tailPrinter{stdout: stdout, stderr: stderr, pretty: *format == "pretty"}
	var wg sync.WaitGroup
	errs := make([]error, len(a.urls))
	for i, u := range a.urls {
		wg.Go(func() { errs[i] = tailOne(ctx, stream, a.token, u+"/admin/tail?"+q.Encode(), p) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(stderr, "dwk tail:", err)
		return 1
	}
	return 0
}

// tailOne copies one replica's stream to p until ctx ends.
func tailOne(ctx context.Context, c *http.Client, token, url string, p *tailPrinter) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("%s: %s: %s", url, resp.Status, strings.TrimSpace(string(b)))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		p.line(sc.Bytes())
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	return fmt.Errorf("%s: the replica ended the stream (it is draining or gone)", url)
}

// tailPrinter writes lines from several streams, one at a time.
type tailPrinter struct {
	mu             sync.Mutex
	stdout, stderr io.Writer
	pretty         bool
}

func (p *tailPrinter) line(b []byte) {
	var probe server.TailError
	json.Unmarshal(b, &probe)
	p.mu.Lock()
	defer p.mu.Unlock()
	if probe.Error != "" {
		fmt.Fprintf(p.stderr, "dwk tail: member %s: %s\n", probe.Member, probe.Error)
		return
	}
	if !p.pretty {
		p.stdout.Write(append(b, '\n'))
		return
	}
	var ev tail.Event
	if err := json.Unmarshal(b, &ev); err != nil {
		return
	}
	fmt.Fprintf(p.stdout, "%s %s %s %s %s %d %s (%d ms)\n",
		time.UnixMilli(ev.EventTimestamp).Format("15:04:05.000"), ev.Member, ev.ScriptName,
		ev.Event.Request.Method, ev.Event.Request.URL, ev.Event.Response.Status, ev.Outcome, ev.WallTimeMs)
	for _, l := range ev.Logs {
		fmt.Fprintf(p.stdout, "  (%s) %s\n", l.Level, strings.Join(l.Message, " "))
	}
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

func (m *multiFlag) Set(s string) error {
	*m = append(*m, s)
	return nil
}
