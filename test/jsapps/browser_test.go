package jsapps

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/procs"
)

// chromium returns the path of Debian's chromium; without it t skips, or
// fails under CI. Tests call it before starting anything.
func chromium(t *testing.T) string {
	t.Helper()
	return needtool.LookPath(t, "chromium", "apt-get install -y chromium (or scripts/tools.sh chromium)")
}

// browser starts headless Chromium (bin) for t and returns the context of
// its first tab; everything stops when t ends, or after limit.
func browser(t *testing.T, bin string, limit time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(1100, 760),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true))
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatalf("start chromium: %v", err)
	}
	return bctx
}

// tab opens another tab of the browser of ctx.
func tab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tctx, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return tctx
}

// page is one chat page in a tab: who uses it, and in which room.
type page struct {
	ctx   context.Context
	user  string
	room  string
	watch []*procs.Proc // the dwk processes whose errors explain a failure
}

// dump describes a page for failure messages.
const dump = `({status: document.querySelector("#status").textContent,
	roster: [...document.querySelectorAll("#roster li")].map(li => li.textContent),
	error: document.querySelector("#error").textContent,
	log: document.querySelector("#log").innerText})`

// open loads the chat at base in ctx and joins room as user. Failures
// quote the errors the processes of watch logged.
func open(t *testing.T, ctx context.Context, base, user, room string, watch []*procs.Proc) *page {
	t.Helper()
	p := &page{ctx: ctx, user: user, room: room, watch: watch}
	p.do(t, "open the chat at "+base, chromedp.Navigate(base+"/"), chromedp.WaitVisible("#join"),
		chromedp.SetValue("#user", user), chromedp.SetValue("#room", room), chromedp.Click("#join"))
	return p
}

// do runs actions, failing t with what on error.
func (p *page) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		t.Fatalf("%s: %s: %v", p.user, what, err)
	}
}

// eval evaluates a JavaScript expression on the page into a T.
func eval[T any](t *testing.T, p *page, expr string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: evaluate %s: %v", p.user, expr, err)
	}
	return v
}

// waitFor polls the JavaScript expression expr every 50 ms until it is
// true, and fails t with what and the page's state after limit.
func (p *page) waitFor(t *testing.T, what, expr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			state, _ := chromedp.Run(p.ctx, chromedp.Evaluate[any](dump))
			b, _ := json.Marshal(state)
			t.Fatalf("%s: %s: not after %v (last error %v); page: %s\n%s", p.user, what, limit, err, b, errorLines(p.watch...))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// inRoom waits until the page is in its room and its roster lists
// exactly users.
func (p *page) inRoom(t *testing.T, users []string, limit time.Duration) {
	t.Helper()
	want, _ := json.Marshal(users)
	p.waitFor(t, fmt.Sprintf("in #%s with %s listed", p.room, want),
		`document.querySelector("#status").textContent === `+js("in #"+p.room)+
			` && JSON.stringify([...document.querySelectorAll("#roster li")].map(li => li.textContent)) === `+js(string(want)),
		limit)
}

// countingDown waits until the page shows its reconnect countdown.
func (p *page) countingDown(t *testing.T, limit time.Duration) {
	t.Helper()
	p.waitFor(t, "counting down to a reconnect",
		`/^disconnected \(\d+\), reconnecting in \d+ s$/.test(document.querySelector("#status").textContent)`, limit)
}

// say sends text from the page's form.
func (p *page) say(t *testing.T, text string) {
	t.Helper()
	p.do(t, "send "+text, chromedp.WaitEnabled("#go"), chromedp.SetValue("#text", text), chromedp.Click("#go"))
}

// shown is how many times the page's log shows from's message text.
func (p *page) shown(t *testing.T, from, text string) int {
	t.Helper()
	return eval[int](t, p, p.count(from, text))
}

func (p *page) count(from, text string) string {
	return `[...document.querySelectorAll("#log .msg")].filter(d => d.querySelector(".who").textContent === ` + js(from) +
		` && d.querySelector(".text").textContent === ` + js(text) + `).length`
}

// log is the messages the page shows, in order, as "user: text".
func (p *page) log(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, p, `[...document.querySelectorAll("#log .msg")].map(d => d.querySelector(".who").textContent + ": " + d.querySelector(".text").textContent)`)
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// since formats how long ago start was, for logs.
func since(start time.Time) string { return fmt.Sprint(time.Since(start).Round(10 * time.Millisecond)) }
