package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dwk/fleet/test/needtool"
)

// EnvScreenshots names the directory the fleet page test writes its
// screenshots into; unset, it writes none.
const EnvScreenshots = "DWK_SCREENSHOTS"

// chromium returns the path of Debian's chromium; without it t skips, or
// fails under CI (package needtool). Tests call it before starting a
// fleet.
func chromium(t *testing.T) string {
	t.Helper()
	return needtool.LookPath(t, "chromium", "apt-get install -y chromium (or scripts/tools.sh chromium)")
}

// browser starts headless Chromium (bin) for t and returns the context of
// its first tab; everything stops when t ends, or after limit.
func browser(t *testing.T, bin string, limit time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(1280, 850),
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

// acceptDialogs accepts every dialog the tab opens (confirm, alert) and
// sends each message on the returned channel.
func acceptDialogs(ctx context.Context) <-chan string {
	msgs := make(chan string, 16)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			select {
			case msgs <- ev.Message:
			default:
			}
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return msgs
}

// do runs actions, failing t with what on error.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression into a T.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls the JavaScript expression expr every 50 ms until it is
// true, and fails t with what and show (an expression describing the page)
// after limit.
func waitFor(t *testing.T, ctx context.Context, what, expr, show string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			state, _ := chromedp.Run(ctx, chromedp.Evaluate[any](show))
			b, _ := json.Marshal(state)
			t.Fatalf("%s: not after %v (last error %v); page: %s", what, limit, err, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot writes the tab's viewport to $DWK_SCREENSHOTS/name, when set.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv(EnvScreenshots)
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", filepath.Join(dir, name))
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// since formats how long ago start was, for logs.
func since(start time.Time) string { return fmt.Sprint(time.Since(start).Round(10 * time.Millisecond)) }
