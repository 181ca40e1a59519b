package jsapps

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/wait"
)

// TestChatLocal serves the chat with `dwk serve --config wrangler.jsonc`
// in local mode. Two pages join one room; a message typed in each shows
// exactly once in both, and both list both users. dwk serve restarts on
// the same address and data directory: both pages count down, get back
// in, and the room's history, on the pages and from the API, is what it
// was; the next message crosses exactly once. When one page leaves, the
// other's roster shows it.
func TestChatLocal(t *testing.T) {
	bin := chromium(t)
	project := chatProject(t)
	start := time.Now()
	dir := t.TempDir()
	srv := serve(t, project, dir, "127.0.0.1:0")
	t.Logf("dwk serve up in %s", since(start))

	room := fmt.Sprintf("local-%d", time.Now().UnixNano())
	ctx := browser(t, bin, 2*time.Minute)
	first := []*procs.Proc{srv.proc}
	pages := []*page{open(t, ctx, srv.URL, "alice", room, first), open(t, tab(t, ctx), srv.URL, "bob", room, first)}
	both := []string{"alice", "bob"}
	for _, p := range pages {
		p.inRoom(t, both, 30*time.Second)
	}
	pages[0].say(t, "hello from alice")
	want := []string{"alice: hello from alice"}
	sameLog(t, pages, want, 15*time.Second)
	pages[1].say(t, "hi alice, bob here")
	want = append(want, "bob: hi alice, bob here")
	sameLog(t, pages, want, 15*time.Second)
	sameHistory(t, srv.URL, room, want)

	// The restart: same address, same data directory.
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	for _, p := range pages {
		p.countingDown(t, 20*time.Second)
	}
	restarted := time.Now()
	srv = serve(t, project, dir, u.Host)
	for _, p := range pages { // failures quote the errors of both processes
		p.watch = []*procs.Proc{first[0], srv.proc}
	}
	sameHistory(t, srv.URL, room, want)
	for _, p := range pages {
		p.inRoom(t, both, 30*time.Second)
	}
	t.Logf("both pages back %s after the restart began", since(restarted))
	sameLog(t, pages, want, 5*time.Second)
	pages[1].say(t, "bob after the restart")
	want = append(want, "bob: bob after the restart")
	sameLog(t, pages, want, 15*time.Second)
	sameHistory(t, srv.URL, room, want)

	// Bob closes his tab: alice's roster follows.
	if err := chromedp.Cancel(pages[1].ctx); err != nil {
		t.Fatalf("close bob's tab: %v", err)
	}
	pages[0].inRoom(t, []string{"alice"}, 15*time.Second)
	noUncaught(t, pages[0].watch...)
	t.Logf("done in %s", since(start))
}

// TestChatFleet serves the chat on a 3-replica central fleet. Two pages
// open it on the two replicas that do not hold the room; messages cross
// exactly once both ways. The room hibernates with their sockets open and
// wakes for the next message, which still names its sender. After a
// kill -9 of the room's holder both pages count down to a reconnect, get
// back in through their own front doors, the history written before the
// kill is all there, and the next messages cross exactly once.
func TestChatFleet(t *testing.T) {
	bin := chromium(t)
	project := chatProject(t)
	start := time.Now()
	f := startFleet(t, project)
	t.Logf("fleet up in %s", since(start))

	var watch []*procs.Proc
	for _, r := range f.Replicas {
		watch = append(watch, r.Proc)
	}
	room := fmt.Sprintf("fleet-%d", time.Now().UnixNano())
	// A socket of the test's places the room where it lands and keeps it
	// there (a room with no socket leaves memory after idleTimeout, and
	// could come back on a page's front door); a message posted over HTTP
	// goes to it by JS RPC from the worker.
	setup := dial(t, f.Replicas[0].Public, room, "setup", watch...)
	if got := setup.read(t); got.Type != "hello" {
		t.Fatalf("setup: first frame %+v, want a hello", got)
	}
	post(t, f.Replicas[0].Public, room, "setup", "welcome")
	want := []string{"setup: welcome"}
	h, doors := split(t, f, holder(t, f.Replicas[0], room))

	ctx := browser(t, bin, 3*time.Minute)
	pages := []*page{open(t, ctx, doors[0].Public, "alice", room, watch), open(t, tab(t, ctx), doors[1].Public, "bob", room, watch)}
	for _, p := range pages {
		p.inRoom(t, []string{"alice", "bob", "setup"}, 30*time.Second)
	}
	setup.close(t)
	both := []string{"alice", "bob"}
	for _, p := range pages {
		p.inRoom(t, both, 15*time.Second)
	}
	sameLog(t, pages, want, 10*time.Second)
	pages[0].say(t, "hello from alice on "+doors[0].Member)
	want = append(want, "alice: hello from alice on "+doors[0].Member)
	sameLog(t, pages, want, 15*time.Second)
	pages[1].say(t, "hi from bob on "+doors[1].Member)
	want = append(want, "bob: hi from bob on "+doors[1].Member)
	sameLog(t, pages, want, 15*time.Second)
	sameHistory(t, doors[0].Public, room, want)

	// The room hibernates with both sockets open, and the next message
	// wakes it: the sender is still known by its socket's attachment.
	wait.Within(t, 20*time.Second, "the room to hibernate on "+h.Member, func() bool { return metric(h, "dwk_objects_asleep") >= 1 })
	wakes := metric(h, "dwk_object_wakes_total")
	pages[0].say(t, "alice after a nap")
	want = append(want, "alice: alice after a nap")
	sameLog(t, pages, want, 15*time.Second)
	if got := metric(h, "dwk_object_wakes_total"); got <= wakes {
		t.Errorf("%s woke %v objects before the message and %v after; want the room woken", h.Member, wakes, got)
	}

	// The kill. (On a loaded machine the room may have moved since it was
	// placed; what matters is that neither page's front door holds it.)
	if now := holder(t, doors[0], room); now != h.Member {
		t.Fatalf("the room moved from %s to %s, a page's front door, before the kill (a replica missed its lease renewals)", h.Member, now)
	}
	h.Kill()
	killed := time.Now()
	for _, p := range pages {
		p.countingDown(t, 20*time.Second)
	}
	for _, p := range pages {
		p.inRoom(t, both, 45*time.Second)
	}
	t.Logf("both pages back %s after the kill", since(killed))
	sameLog(t, pages, want, 5*time.Second)
	sameHistory(t, doors[1].Public, room, want)
	pages[1].say(t, "bob after the kill")
	want = append(want, "bob: bob after the kill")
	sameLog(t, pages, want, 15*time.Second)
	pages[0].say(t, "alice after the kill")
	want = append(want, "alice: alice after the kill")
	sameLog(t, pages, want, 15*time.Second)
	for _, d := range doors {
		sameHistory(t, d.Public, room, want)
	}
	noUncaught(t, watch...)
	t.Logf("done in %s", since(start))
}
