package jsapps

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// message is a stored message as the API returns it.
type message struct {
	ID     int64  `json:"id"`
	User   string `json:"user"`
	Text   string `json:"text"`
	SentAt int64  `json:"sentAt"`
}

func (m message) String() string { return m.User + ": " + m.Text }

// call sends method path (with body, when not empty) to base and returns
// the status and the body.
func call(t *testing.T, method, base, path, body string) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// post stores a message through the API and returns it.
func post(t *testing.T, base, room, user, text string) message {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"user": user, "text": text})
	code, b := call(t, "POST", base, "/api/rooms/"+url.PathEscape(room)+"/messages", string(body))
	if code != http.StatusCreated {
		t.Fatalf("post %q to %s: %d %s", text, room, code, b)
	}
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("post %q to %s: %v in %s", text, room, err, b)
	}
	return m
}

// history is the room's history from the API, as "user: text".
func history(t *testing.T, base, room string) []string {
	t.Helper()
	code, b := call(t, "GET", base, "/api/rooms/"+url.PathEscape(room)+"/messages?limit=200", "")
	if code != http.StatusOK {
		t.Fatalf("history of %s: %d %s", room, code, b)
	}
	var out struct {
		Room     string
		Messages []message
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Room != room {
		t.Fatalf("history of %s: %v, room %q in %s", room, err, out.Room, b)
	}
	var got []string
	for _, m := range out.Messages {
		got = append(got, m.String())
	}
	return got
}

// sameHistory checks that the room's history is want, in order, each
// message once.
func sameHistory(t *testing.T, base, room string, want []string) {
	t.Helper()
	if got := history(t, base, room); !slices.Equal(got, want) {
		t.Fatalf("history of %s from %s:\n got %q\nwant %q", room, base, got, want)
	}
}

// sameLog waits until each page's log is want, in order, each message
// once. Messages arrive in order on one socket, so a copy of an earlier
// message would show before a later one does.
func sameLog(t *testing.T, pages []*page, want []string, limit time.Duration) {
	t.Helper()
	w, _ := json.Marshal(want)
	for _, p := range pages {
		p.waitFor(t, "the log "+string(w),
			`JSON.stringify([...document.querySelectorAll("#log .msg")].map(d => d.querySelector(".who").textContent + ": " + d.querySelector(".text").textContent)) === `+js(string(w)),
			limit)
	}
}
