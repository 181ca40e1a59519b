package browser

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dwk/fleet/test/fleettest"
)

var client = &http.Client{Timeout: 30 * time.Second}

// TestFleetPage signs in to one replica's fleet page (after a wrong token
// is refused), sees the three members, looks up an object and finds its
// holder, drains the holder from the page and watches it go draining and
// leave, and sees the object move to another holder and its lease history
// name both.
func TestFleetPage(t *testing.T) {
	bin := chromium(t)
	start := time.Now()
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: leaseTTL})
	t.Logf("fleet up in %s", since(start))
	name := fmt.Sprintf("page-%d", time.Now().UnixNano())
	if err := increment(f.Replicas[0], name); err != nil {
		t.Fatal(err)
	}
	holder := objectHolder(t, f.Replicas[0], "Counter", name)
	var h, p *fleettest.Replica // the object's holder, and the page's replica
	for _, r := range f.Replicas {
		switch {
		case r.Member == holder:
			h = r
		case p == nil:
			p = r
		}
	}
	if h == nil {
		t.Fatalf("holder %q is no replica of the fleet", holder)
	}
	refusesWithoutToken(t, p)

	ctx := browser(t, bin, 2*time.Minute)
	dialogs := acceptDialogs(ctx)
	const dump = `({url: location.href, body: document.body && document.body.innerText.slice(0, 2000)})`

	// A wrong token: the sign-in form again, and no data for this browser.
	do(t, ctx, "open the page", chromedp.Navigate(p.Admin+"/"), chromedp.WaitVisible("#token"))
	do(t, ctx, "sign in with a wrong token", chromedp.SetValue("#token", "not-the-token"), chromedp.Submit("#token"))
	waitFor(t, ctx, "wrong token refused", `document.querySelector("#problem")?.textContent === "Wrong token."`, dump, 20*time.Second)
	if n := eval[int](t, ctx, `document.querySelectorAll("#members").length`); n != 0 {
		t.Fatalf("after a wrong token the page shows the members table")
	}
	if code := eval[int](t, ctx, `fetch("/admin/fleet").then(r => r.status)`); code != http.StatusUnauthorized {
		t.Fatalf("GET /admin/fleet after a wrong sign-in: %d, want 401", code)
	}

	// The right token: three members, ready.
	do(t, ctx, "sign in", chromedp.SetValue("#token", fleettest.AdminToken), chromedp.Submit("#token"))
	waitFor(t, ctx, "three ready members",
		`[...document.querySelectorAll("#members tbody tr[data-member] .state")].filter(s => s.textContent === "ready").length === 3`, dump, 30*time.Second)
	// The lookup finds the holder.
	do(t, ctx, "look up the object",
		chromedp.SetValue("#lookup-class", "Counter"), chromedp.SetValue("#lookup-name", name), chromedp.Click("#lookup-go"))
	waitFor(t, ctx, "the holder shown", `document.querySelector("#lookup-result").dataset.holder === `+js(holder), dump, 20*time.Second)
	samples := 1
	if os.Getenv(EnvScreenshots) != "" {
		samples = 8 // a sparkline worth looking at
	}
	waitFor(t, ctx, "coordination round trips plotted",
		fmt.Sprintf(`(document.querySelector("#spark polyline")?.points.length ?? 0) >= %d`, samples), dump, 20*time.Second)
	screenshot(t, ctx, "fleet-page.png")

	// Drain the holder from the page.
	row := `document.querySelector('#members tr[data-member=` + js(holder) + `]')`
	drainStart := time.Now()
	do(t, ctx, "press drain", chromedp.Click(`button.drain[data-member=`+js(holder)+`]`))
	select {
	case msg := <-dialogs:
		if !strings.Contains(msg, holder) {
			t.Fatalf("the confirmation %q does not name %s", msg, holder)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pressing drain asked for no confirmation")
	}
	waitFor(t, ctx, holder+" draining", row+`?.querySelector(".state").textContent === "draining"`, dump, 20*time.Second)
	t.Logf("%s draining after %s", holder, since(drainStart))
	screenshot(t, ctx, "fleet-page-draining.png")
	waitFor(t, ctx, holder+" gone from the members", row+` === null && document.querySelectorAll("#members tbody tr[data-member]").length === 2`, dump, 40*time.Second)
	t.Logf("%s left after %s", holder, since(drainStart))
	if code, err := h.Proc.Wait(30 * time.Second); err != nil || code != 0 {
		t.Fatalf("%s after the drain: exit %d, %v", holder, code, err)
	}
	waitFor(t, ctx, "the departure logged", `document.querySelector("#events").textContent.includes(`+js(holder+" left the fleet")+`)`, dump, 10*time.Second)

	// The next request takes the object elsewhere, and the page follows.
	if err := increment(p, name); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "a new holder shown",
		`(h => h && h !== `+js(holder)+`)(document.querySelector("#lookup-result").dataset.holder)`, dump, 20*time.Second)
	newHolder := eval[string](t, ctx, `document.querySelector("#lookup-result").dataset.holder`)

	// The deep link shows both tenures.
	do(t, ctx, "open the object's page", chromedp.Navigate(p.Admin+"/objects/Counter/"+url.PathEscape(name)))
	waitFor(t, ctx, "the lease history",
		`(t => t.includes(`+js(holder)+`) && t.includes(`+js(newHolder)+`))(document.querySelector("#history").textContent) && !document.querySelector("#history-card").hidden`,
		dump, 20*time.Second)
	t.Logf("done in %s", since(start))
}

// refusesWithoutToken checks that every admin JSON endpoint of r refuses
// a request without the token, with a wrong bearer token and with a
// forged cookie; and that a wrong sign-in gets 401 and no data.
func refusesWithoutToken(t *testing.T, r *fleettest.Replica) {
	t.Helper()
	endpoints := []struct{ method, path string }{
		{"GET", "/admin/status"},
		{"GET", "/admin/fleet"},
		{"GET", "/admin/objects/lease?class=Counter&name=x"},
		{"POST", "/admin/objects/release?class=Counter&name=x"},
		{"POST", "/admin/members/" + r.Member + "/drain"},
		{"POST", "/admin/drain"},
		{"GET", "/admin/nothing-here"},
	}
	for _, e := range endpoints {
		for _, auth := range []struct{ name, header, value string }{
			{"no token", "", ""},
			{"a wrong bearer token", "Authorization", "Bearer wrong"},
			{"a forged cookie", "Cookie", "dwk_admin=" + strings.Repeat("0", 64)},
		} {
			req, _ := http.NewRequest(e.method, r.Admin+e.path, nil)
			if auth.header != "" {
				req.Header.Set(auth.header, auth.value)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("%s %s with %s: %s, want 401", e.method, e.path, auth.name, resp.Status)
			}
		}
	}
	resp, err := client.PostForm(r.Admin+"/signin", url.Values{"token": {"wrong"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 || strings.Contains(string(body), r.Member) {
		t.Fatalf("a wrong sign-in: %s, cookies %v, body mentions %s: %v", resp.Status, resp.Cookies(), r.Member, strings.Contains(string(body), r.Member))
	}
}

// increment increments counter name through r's front door.
func increment(r *fleettest.Replica, name string) error {
	resp, err := client.Post(r.Public+"/counter/"+url.PathEscape(name)+"/increment", "", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("increment %s through %s: %s: %s", name, r.Member, resp.Status, b)
	}
	return nil
}

// objectHolder asks r's admin API who holds the object.
func objectHolder(t *testing.T, r *fleettest.Replica, class, name string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", r.Admin+"/admin/objects/lease?"+url.Values{"class": {class}, "name": {name}}.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+fleettest.AdminToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var o struct {
		Held   bool
		Holder string
	}
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil || resp.StatusCode != http.StatusOK || !o.Held {
		t.Fatalf("look up %s %q: %s, %+v, %v", class, name, resp.Status, o, err)
	}
	return o.Holder
}
