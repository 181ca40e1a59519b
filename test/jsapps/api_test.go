package jsapps

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/procs"
)

// TestAPI checks the chat's HTTP API on one local dwk serve: the page and
// its script from the assets directory, messages stored and listed
// through JS RPC, and every kind of bad input answered 400 with zod's
// message, as zod gives it in Node.js.
func TestAPI(t *testing.T) {
	srv := serve(t, chatProject(t), t.TempDir(), "127.0.0.1:0")
	room := fmt.Sprintf("api-%d", time.Now().UnixNano())

	t.Run("assets", func(t *testing.T) {
		for _, c := range []struct{ path, typ, contains string }{
			{"/", "text/html", "<title>Chat</title>"},
			{"/app.js", "javascript", "new WebSocket("},
			{"/style.css", "text/css", "#roster"},
		} {
			resp, err := client.Get(srv.URL + c.path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), c.typ) || !strings.Contains(string(b), c.contains) {
				t.Errorf("GET %s: %s, Content-Type %q, %v; want 200, %s, a body with %q", c.path, resp.Status, resp.Header.Get("Content-Type"), err, c.typ, c.contains)
			}
		}
	})

	t.Run("messages", func(t *testing.T) {
		first := post(t, srv.URL, room, "alice", "  first  ")
		second := post(t, srv.URL, room, "zoë", "second")
		third := post(t, srv.URL, room, "Łukasz_2", "third")
		if first.Text != "first" || !(first.ID < second.ID && second.ID < third.ID) || first.SentAt == 0 {
			t.Errorf("posted %+v, %+v, %+v; want trimmed text, rising ids, a time", first, second, third)
		}
		sameHistory(t, srv.URL, room, []string{"alice: first", "zoë: second", "Łukasz_2: third"})
		code, b := call(t, "GET", srv.URL, "/api/rooms/"+room+"/messages?limit=2", "")
		var got struct{ Messages []message }
		if err := json.Unmarshal(b, &got); err != nil || code != 200 || !slices.Equal(got.Messages, []message{second, third}) {
			t.Errorf("limit=2: %d %s; want the last two, oldest first", code, b)
		}
		sameHistory(t, srv.URL, "api-empty", nil)
	})

	t.Run("bad input", func(t *testing.T) {
		msgs := "/api/rooms/" + room + "/messages"
		for _, c := range []struct {
			name, method, path, body string
			code                     int
			err                      string // the answer's error
		}{
			{"no text", "POST", msgs, `{"user": "alice"}`, 400, "text: Invalid input: expected string, received undefined"},
			{"blank text", "POST", msgs, `{"user": "alice", "text": "   "}`, 400, "text: text must not be empty"},
			{"long text", "POST", msgs, `{"user": "alice", "text": "` + strings.Repeat("x", 2001) + `"}`, 400, "text: text must be at most 2000 characters"},
			{"user with a space", "POST", msgs, `{"user": "a b", "text": "hi"}`, 400, "user: user must be 1 to 24 letters, digits, '.', '_' or '-'"},
			{"user a number", "POST", msgs, `{"user": 5, "text": "hi"}`, 400, "user: Invalid input: expected string, received number"},
			{"two problems", "POST", msgs, `{"user": "", "text": ""}`, 400, "user: user must be 1 to 24 letters, digits, '.', '_' or '-'; text: text must not be empty"},
			{"array", "POST", msgs, `[]`, 400, "Invalid input: expected object, received array"},
			{"not JSON", "POST", msgs, `hello`, 400, "the body must be JSON"},
			{"bad room", "POST", "/api/rooms/Lobby!/messages", `{"user": "alice", "text": "hi"}`, 400, "room must be 1 to 64 lower-case letters, digits, '-' or '_'"},
			{"limit zero", "GET", msgs + "?limit=0", "", 400, "limit: Too small: expected number to be >=1"},
			{"limit too big", "GET", msgs + "?limit=500", "", 400, "limit: Too big: expected number to be <=200"},
			{"limit a fraction", "GET", msgs + "?limit=2.5", "", 400, "limit: Invalid input: expected int, received number"},
			{"limit a word", "GET", msgs + "?limit=ten", "", 400, "limit: Invalid input: expected number, received NaN"},
			{"socket without a user", "GET", "/api/rooms/" + room + "/ws", "", 400, "user must be 1 to 24 letters, digits, '.', '_' or '-'"},
			{"no route", "DELETE", msgs, "", 404, "no route for DELETE " + msgs},
		} {
			code, b := call(t, c.method, srv.URL, c.path, c.body)
			var got struct{ Error string }
			if err := json.Unmarshal(b, &got); err != nil || code != c.code || got.Error != c.err {
				t.Errorf("%s: %s %s: %d %s; want %d with error %q", c.name, c.method, c.path, code, b, c.code, c.err)
			}
		}
		// The issues are zod's own.
		_, b := call(t, "POST", srv.URL, msgs, `{"user": "alice", "text": ""}`)
		var got struct{ Issues []map[string]any }
		json.Unmarshal(b, &got)
		if len(got.Issues) != 1 || got.Issues[0]["code"] != "too_small" || got.Issues[0]["minimum"] != 1.0 || fmt.Sprint(got.Issues[0]["path"]) != "[text]" {
			t.Errorf("issues of an empty text: %s; want zod's too_small issue at [text]", b)
		}
		code, b := call(t, "GET", srv.URL, "/api/rooms/"+room+"/ws?user=alice", "")
		if code != http.StatusUpgradeRequired {
			t.Errorf("GET /ws without an upgrade: %d %s; want 426", code, b)
		}
		sameHistory(t, srv.URL, room, []string{"alice: first", "zoë: second", "Łukasz_2: third"})
	})

	t.Run("socket", func(t *testing.T) {
		ws := dial(t, srv.URL, room, "carol", srv.proc)
		hello := ws.read(t)
		if hello.Type != "hello" || hello.You != "carol" || !slices.Equal(hello.Users, []string{"carol"}) || len(hello.History) != 3 {
			t.Fatalf("first frame %+v; want a hello to carol with carol in the room and 3 messages of history", hello)
		}
		// Keepalives are answered by the runtime, without the room.
		ws.send(t, "ping")
		if got := ws.readText(t); got != "pong" {
			t.Errorf("ping: %q, want pong", got)
		}
		for _, c := range []struct{ send, err string }{
			{`not json`, "frames must be JSON"},
			{`{"type": "message", "text": ""}`, "text: text must not be empty"},
			{`{"type": "shout", "text": "hi"}`, "type: Invalid discriminator value. Expected 'message'"},
			{`"hi"`, "Invalid input: expected object, received string"},
		} {
			ws.send(t, c.send)
			if got := ws.read(t); got.Type != "error" || got.Error != c.err {
				t.Errorf("sent %s: %+v, want the error %q", c.send, got, c.err)
			}
		}
		// A second socket joins: both see the roster; a message from one
		// reaches both once, in order.
		dave := dial(t, srv.URL, room, "dave", srv.proc)
		if got := dave.read(t); got.Type != "hello" || !slices.Equal(got.Users, []string{"carol", "dave"}) {
			t.Errorf("dave's hello %+v; want carol and dave listed", got)
		}
		if got := ws.read(t); got.Type != "presence" || !slices.Equal(got.Users, []string{"carol", "dave"}) {
			t.Errorf("carol after dave joined: %+v; want presence of carol and dave", got)
		}
		ws.send(t, `{"type": "message", "text": "over the socket"}`)
		for _, s := range []*socket{ws, dave} {
			if got := s.read(t); got.Type != "message" || got.Message.User != "carol" || got.Message.Text != "over the socket" {
				t.Errorf("%s: %+v; want carol's message", s.user, got)
			}
		}
		dave.close(t)
		if got := ws.read(t); got.Type != "presence" || !slices.Equal(got.Users, []string{"carol"}) {
			t.Errorf("carol after dave left: %+v; want presence of carol alone", got)
		}
		// The room trims names as the API does.
		erin := dial(t, srv.URL, room, url.QueryEscape(" erin "), srv.proc)
		if got := erin.read(t); got.Type != "hello" || got.You != "erin" || !slices.Equal(got.Users, []string{"carol", "erin"}) {
			t.Errorf("erin's hello %+v; want it to erin, with carol and erin listed", got)
		}
		erin.close(t)
		for _, want := range [][]string{{"carol", "erin"}, {"carol"}} {
			if got := ws.read(t); got.Type != "presence" || !slices.Equal(got.Users, want) {
				t.Errorf("carol while erin came and went: %+v; want presence of %q", got, want)
			}
		}
		sameHistory(t, srv.URL, room, []string{"alice: first", "zoë: second", "Łukasz_2: third", "carol: over the socket"})
	})
	noUncaught(t, srv.proc)
}

// frame is what the room sends a socket.
type frame struct {
	Type    string
	You     string
	Users   []string
	History []message
	Message message
	Error   string
}

// socket is a WebSocket to a room, as a page opens it.
type socket struct {
	user string
	c    *websocket.Conn
}

// dial opens a socket to room at base as user. A failure quotes the
// errors the processes of watch logged.
func dial(t *testing.T, base, room, user string, watch ...*procs.Proc) *socket {
	t.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + "/api/rooms/" + room + "/ws?user=" + user
	c, resp, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		status := ""
		if resp != nil {
			status = resp.Status
		}
		t.Fatalf("%s: dial %s: %v %s\n%s", user, u, err, status, errorLines(watch...))
	}
	t.Cleanup(func() { c.Close() })
	return &socket{user: user, c: c}
}

func (s *socket) send(t *testing.T, text string) {
	t.Helper()
	if err := s.c.WriteMessage(websocket.TextMessage, []byte(text)); err != nil {
		t.Fatalf("%s: send %s: %v", s.user, text, err)
	}
}

func (s *socket) readText(t *testing.T) string {
	t.Helper()
	s.c.SetReadDeadline(time.Now().Add(15 * time.Second))
	_, b, err := s.c.ReadMessage()
	if err != nil {
		t.Fatalf("%s: read: %v", s.user, err)
	}
	return string(b)
}

func (s *socket) read(t *testing.T) frame {
	t.Helper()
	text := s.readText(t)
	var f frame
	if err := json.Unmarshal([]byte(text), &f); err != nil {
		t.Fatalf("%s: frame %q: %v", s.user, text, err)
	}
	return f
}

// close closes the socket as a page does when it leaves.
func (s *socket) close(t *testing.T) {
	t.Helper()
	s.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "bye"), time.Now().Add(5*time.Second))
	s.c.Close()
}
