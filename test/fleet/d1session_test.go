package fleet

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/refworkers/chat"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestD1SessionAcrossReplicas: a chat message posted to a room answers
// with the D1 bookmark after it, written by the room's holder; a history
// read served by the other replica, in a D1 session started from that
// bookmark, sees the message and answers with a bookmark at least as far.
// A malformed bookmark and one of another database are refused with 400
// and a message saying what to send instead.
func TestD1SessionAcrossReplicas(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 2, Edit: func(_ int, c *config.Config) {
		// Without the room's affinity rule, a history read is served by
		// the replica it reaches, not by the room's holder.
		var rules []config.AffinityRule
		for _, r := range c.Affinity.Rules {
			if r.Namespace != chat.Class {
				rules = append(rules, r)
			}
		}
		c.Affinity.Rules = rules
	}})
	room := fmt.Sprintf("bookmark-%d", time.Now().UnixNano())
	var last worker.D1Position
	for i := range 3 {
		text := fmt.Sprintf("message %d", i)
		req, _ := http.NewRequest("POST", f.Replicas[i%2].Public+"/chat/rooms/"+room+"/messages",
			strings.NewReader(fmt.Sprintf(`{"user":"u","text":%q}`, text)))
		resp := do1(t, req, http.StatusOK)
		posted, err := worker.ParseD1Bookmark(resp.Header.Get(chat.HeaderBookmark))
		if err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		writer := resp.Header.Get("X-Dwk-Member")
		// A request that addresses no object is served in process by the
		// replica it reaches once that replica's front door lists itself
		// ready, which can lag its start by a member refresh: read through
		// the other replica until it serves the read itself. Every read
		// must see the message.
		other := f.Replicas[0]
		if other.Member == writer {
			other = f.Replicas[1]
		}
		wait.Within(t, 15*time.Second, fmt.Sprintf("a history read through %s after post %d served by it, not by the writer %s", other.Member, i, writer), func() bool {
			req, _ = http.NewRequest("GET", other.Public+"/chat/rooms/"+room+"/messages", nil)
			req.Header.Set(chat.HeaderBookmark, posted.Bookmark())
			resp = do1(t, req, http.StatusOK)
			var msgs []struct{ Text string }
			if err := json.Unmarshal(resp.body, &msgs); err != nil {
				t.Fatal(err)
			}
			reader := resp.Header.Get("X-Dwk-Member")
			if len(msgs) != i+1 || msgs[i].Text != text {
				t.Fatalf("history served by %s after post %d (written by %s): %+v, want %d messages ending with %q", reader, i, writer, msgs, i+1, text)
			}
			read, err := worker.ParseD1Bookmark(resp.Header.Get(chat.HeaderBookmark))
			if err != nil || read.Epoch != posted.Epoch || read.Commit < posted.Commit {
				t.Errorf("history's bookmark = %+v, %v; want the same epoch and at least %+v", read, err, posted)
			}
			return reader != writer
		})
		last = posted
	}
	for _, bad := range []string{"garbage", worker.D1Position{Epoch: last.Epoch + 2, Commit: last.Commit}.Bookmark()} {
		req, _ := http.NewRequest("GET", f.Replicas[1].Public+"/chat/rooms/"+room+"/messages", nil)
		req.Header.Set(chat.HeaderBookmark, bad)
		resp := do1(t, req, http.StatusBadRequest)
		if !strings.Contains(string(resp.body), worker.D1FirstPrimary) {
			t.Errorf("bookmark %q: answer %q does not say what to send instead", bad, resp.body)
		}
	}
}

// response is an answer with its body read.
type response struct {
	*http.Response
	body []byte
}

// do1 sends req and fails the test unless the answer has status want.
func do1(t *testing.T, req *http.Request, want int) response {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %s: %s, want %d", req.Method, req.URL, resp.Status, b, want)
	}
	return response{Response: resp, body: b}
}
