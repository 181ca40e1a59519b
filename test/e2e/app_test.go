package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// databases is modules/fleet's databases output.
type databases struct {
	Coord  string            `json:"coord"`
	Queues string            `json:"queues"`
	D1     map[string]string `json:"d1"`
}

// member is one element of modules/fleet's members output.
type member struct {
	Member     string `json:"member"`
	InstallDir string `json:"install_dir"`
	URL        string `json:"url"`
	State      string `json:"state"`
	Version    string `json:"version"`
}

// markerOut is modules/fleet's marker output.
type markerOut struct {
	ID       string `json:"id"`
	Schema   int    `json:"schema"`
	Database string `json:"database"`
}

var httpClient = &http.Client{Timeout: 15 * time.Second}

// call sends one request and decodes a JSON answer into out (when not nil
// and the status is 2xx). It returns the status and the member that
// answered.
func call(t *testing.T, method, url string, body io.Reader, out any) (status int, servedBy string) {
	t.Helper()
	return callWith(t, httpClient, method, url, body, out)
}

// callWith is call with client c.
func callWith(t *testing.T, c *http.Client, method, url string, body io.Reader, out any) (status int, servedBy string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %q", method, url, err, b)
		}
	}
	return resp.StatusCode, resp.Header.Get("X-Dwk-Member")
}

// driveCounter increments one counter through every front door in turn
// and checks that they all reach the one object: each answer is the
// previous plus one.
func driveCounter(t *testing.T, urls []string, name string, n int) {
	t.Helper()
	clients := make([]*http.Client, len(urls))
	for i := range clients {
		clients[i] = httpClient
	}
	driveCounterAt(t, clients, urls, name, n)
}

// driveCounterWith is driveCounter through clients that each reach one
// front door, all at the URL base.
func driveCounterWith(t *testing.T, clients []*http.Client, base, name string, n int) {
	t.Helper()
	urls := make([]string, len(clients))
	for i := range urls {
		urls[i] = base
	}
	driveCounterAt(t, clients, urls, name, n)
}

// driveCounterAt sends the i-th request with clients[i] to urls[i], in
// turn.
func driveCounterAt(t *testing.T, clients []*http.Client, urls []string, name string, n int) {
	t.Helper()
	served := map[string]int{}
	for i := range n {
		u, c := urls[i%len(urls)], clients[i%len(clients)]
		var got struct{ Value int64 }
		code, by := callWith(t, c, "POST", u+"/counter/"+name+"/increment", nil, &got)
		if code != http.StatusOK {
			t.Fatalf("POST %s/counter/%s/increment: status %d", u, name, code)
		}
		if got.Value != int64(i+1) {
			t.Fatalf("increment %d through %s returned %d, want %d: the front doors do not share one counter object", i+1, u, got.Value, i+1)
		}
		served[by]++
	}
	var got struct{ Value int64 }
	if code, _ := callWith(t, clients[len(clients)-1], "GET", urls[len(urls)-1]+"/counter/"+name, nil, &got); code != http.StatusOK || got.Value != int64(n) {
		t.Fatalf("GET counter %s = %d (status %d), want %d", name, got.Value, code, n)
	}
	t.Logf("counter %s: %d increments through %d front doors, answered by %v", name, n, len(clients), served)
}

// chatMessage is what the chat room sends its sockets.
type chatMessage struct {
	Type, User, Text string
}

// driveChat connects alice and bob to one room through two different front
// doors; each sends a message and each must receive both. The history,
// read through a third front door, holds both.
func driveChat(t *testing.T, urls []string, room string) {
	t.Helper()
	dial := func(base, user string) *websocket.Conn {
		u := strings.Replace(base, "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=" + user
		c, resp, err := websocket.DefaultDialer.Dial(u, nil)
		if err != nil {
			status := ""
			if resp != nil {
				status = resp.Status
			}
			t.Fatalf("WebSocket %s: %v %s", u, err, status)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	alice := dial(urls[0], "alice")
	bob := dial(urls[1%len(urls)], "bob")
	if err := alice.WriteJSON(map[string]string{"text": "hi bob"}); err != nil {
		t.Fatal(err)
	}
	if err := bob.WriteJSON(map[string]string{"text": "hi alice"}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*websocket.Conn{"alice": alice, "bob": bob} {
		want := map[string]bool{"alice: hi bob": false, "bob: hi alice": false}
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		for seen := 0; seen < len(want); {
			var m chatMessage
			if err := c.ReadJSON(&m); err != nil {
				t.Fatalf("%s (connected through %s) did not get both messages: %v; got so far: %v", name, urls[0], err, want)
			}
			k := m.User + ": " + m.Text
			if done, ok := want[k]; m.Type == "message" && ok && !done {
				want[k] = true
				seen++
			}
		}
	}
	var hist []struct{ User, Text string }
	u := urls[len(urls)-1] + "/chat/rooms/" + room + "/messages"
	if code, _ := call(t, "GET", u, nil, &hist); code != http.StatusOK || len(hist) != 2 {
		t.Fatalf("GET %s: status %d, %d messages, want 2: %+v", u, code, len(hist), hist)
	}
}

// uploadAttachment posts a file to a chat room and returns its URL path.
func uploadAttachment(t *testing.T, base, room, body string) string {
	t.Helper()
	var m struct {
		Attachment struct{ URL string }
	}
	u := fmt.Sprintf("%s/chat/rooms/%s/attachments?user=ann&name=notes.txt", base, room)
	if code, _ := call(t, "POST", u, strings.NewReader(body), &m); code != http.StatusOK || m.Attachment.URL == "" {
		t.Fatalf("POST %s: status %d, attachment %+v", u, code, m.Attachment)
	}
	return m.Attachment.URL
}
