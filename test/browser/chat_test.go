package browser

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dwk/fleet/test/fleettest"
)

// leaseTTL is the lease (and member record) TTL of the browser tests'
// fleets: a kill -9 costs up to this long before another replica takes
// the room.
const leaseTTL = 5 * time.Second

// quiet is how long a page is watched after a message arrived, to see
// that no copy follows.
const quiet = 1500 * time.Millisecond

// TestChatPage opens the chat page on two front doors (the two replicas
// that do not hold the room), joins twice quickly on each, and checks a
// message crosses exactly once and both pages list both users. After a
// kill -9 of the room's holder, and again after the room is handed back
// (close code 1012), both pages count down to a reconnect, get back in,
// and the next message crosses exactly once.
func TestChatPage(t *testing.T) {
	bin := chromium(t)
	start := time.Now()
	// Leases and member records outlive a loaded machine's late renewals,
	// so the room stays where it was placed until the kill.
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: leaseTTL})
	t.Logf("fleet up in %s", since(start))
	room := fmt.Sprintf("browser-%d", time.Now().UnixNano())
	// A message posted without a WebSocket places the room.
	resp, err := client.Post(f.Replicas[0].Public+"/chat/rooms/"+room+"/messages", "application/json",
		strings.NewReader(`{"user": "setup", "text": "welcome"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("post the first message: %s", resp.Status)
	}
	holder := objectHolder(t, f.Replicas[0], "ChatRoom", room)
	var h *fleettest.Replica
	var doors []*fleettest.Replica
	for _, r := range f.Replicas {
		if r.Member == holder {
			h = r
		} else {
			doors = append(doors, r)
		}
	}
	if h == nil || len(doors) != 2 {
		t.Fatalf("holder %q: not one of the fleet's three replicas", holder)
	}

	ctx := browser(t, bin, 2*time.Minute)
	users := []string{"alice", "bob"}
	pages := []context.Context{ctx, tab(t, ctx)}
	const dump = `({status: document.querySelector("#status")?.textContent, roster: document.querySelector("#roster")?.textContent, log: document.querySelector("#log")?.innerText})`
	for i, p := range pages {
		do(t, p, "open the chat on "+doors[i].Member, chromedp.Navigate(doors[i].Public+"/"), chromedp.WaitVisible("#room"),
			chromedp.SetValue("#user", users[i]), chromedp.SetValue("#room", room))
		// Two joins in a row: the second starts while the first (and the
		// page's own join of the lobby) still loads history.
		eval[bool](t, p, `(() => { document.querySelector("#join").click(); document.querySelector("#join").click(); return true })()`)
	}
	inRoom := `document.querySelector("#status").textContent === ` + js("in #"+room) +
		` && ["alice", "bob"].every(u => [...document.querySelectorAll("#roster li")].some(li => li.textContent === u))`
	for i, p := range pages {
		waitFor(t, p, users[i]+" in the room with both users listed", inRoom, dump, 30*time.Second)
		onceOnly(t, p, users[i], "setup", "welcome")
	}

	say(t, pages[0], "hello from alice")
	for i, p := range pages {
		onceOnly(t, p, users[i], "alice", "hello from alice")
	}

	// kill -9 of the room's holder: both pages count down and get back in.
	// (On a loaded machine the room may have moved since it was placed;
	// what matters is that neither page's front door holds it.)
	if now := objectHolder(t, doors[0], "ChatRoom", room); now != holder {
		t.Fatalf("the room moved from %s to %s, a page's front door, before the kill (a replica missed its lease renewals)", holder, now)
	}
	h.Kill()
	killed := time.Now()
	for i, p := range pages {
		waitFor(t, p, users[i]+" counting down to a reconnect",
			`/reconnecting in \d+ s/.test(document.querySelector("#status").textContent)`, dump, 20*time.Second)
	}
	for i, p := range pages {
		waitFor(t, p, users[i]+" back in the room", inRoom, dump, 40*time.Second)
	}
	t.Logf("both pages back %s after the kill", since(killed))
	say(t, pages[1], "bob after the kill")
	for i, p := range pages {
		onceOnly(t, p, users[i], "bob", "bob after the kill")
	}

	// The room handed back (its WebSockets close with 1012): both pages
	// count down again, saying why, and get back in.
	var now *fleettest.Replica
	holder = objectHolder(t, doors[0], "ChatRoom", room)
	for _, r := range doors {
		if r.Member == holder {
			now = r
		}
	}
	if now == nil {
		t.Fatalf("after the kill the room is held by %q, not by a live replica", holder)
	}
	if released, err := now.ReleaseObject("ChatRoom", room); err != nil || !released {
		t.Fatalf("release the room on %s: %v, %v", holder, released, err)
	}
	for i, p := range pages {
		waitFor(t, p, users[i]+" counting down after 1012",
			`/\(1012\), reconnecting in \d+ s/.test(document.querySelector("#status").textContent)`, dump, 20*time.Second)
	}
	for i, p := range pages {
		waitFor(t, p, users[i]+" back in the room after 1012", inRoom, dump, 40*time.Second)
	}
	say(t, pages[0], "alice after 1012")
	for i, p := range pages {
		onceOnly(t, p, users[i], "alice", "alice after 1012")
	}
	t.Logf("done in %s", since(start))
}

// say sends text from the page's form.
func say(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	do(t, ctx, "send "+text, chromedp.WaitEnabled("#text"), chromedp.SetValue("#text", text), chromedp.Click("#go"))
}

// onceOnly waits until the page shows from's message text, then checks it
// is shown exactly once, and still once after quiet.
func onceOnly(t *testing.T, ctx context.Context, page, from, text string) {
	t.Helper()
	count := `[...document.querySelectorAll("#log .msg")].filter(d => d.textContent === ` + js(from+": "+text) + `).length`
	dump := `({status: document.querySelector("#status").textContent, log: document.querySelector("#log").innerText})`
	waitFor(t, ctx, page+" shows "+text, count+` >= 1`, dump, 30*time.Second)
	time.Sleep(quiet)
	if n := eval[int](t, ctx, count); n != 1 {
		t.Fatalf("%s shows %q %d times, want once; log:\n%s", page, text, n, eval[string](t, ctx, `document.querySelector("#log").innerText`))
	}
}
