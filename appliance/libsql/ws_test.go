package libsql

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/gorilla/websocket"
)

// wsClient is a minimal Hrana-over-WebSocket client for tests.
type wsClient struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialWS(t *testing.T, s *Server, subprotocols ...string) *wsClient {
	t.Helper()
	d := websocket.Dialer{Subprotocols: subprotocols, HandshakeTimeout: 5 * time.Second}
	ws, resp, err := d.Dial("ws://"+s.Addr().String()+"/", nil)
	if err != nil {
		t.Fatalf("dial: %v (resp %v)", err, resp)
	}
	t.Cleanup(func() { ws.Close() })
	return &wsClient{t: t, ws: ws}
}

func (c *wsClient) send(msg string) {
	c.t.Helper()
	if err := c.ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// recv returns the next message as decoded JSON, or the close error.
func (c *wsClient) recv() (map[string]any, error) {
	c.t.Helper()
	c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, data, err := c.ws.ReadMessage()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("server sent invalid JSON %s", data)
	}
	return m, nil
}

func (c *wsClient) mustRecv() map[string]any {
	c.t.Helper()
	m, err := c.recv()
	if err != nil {
		c.t.Fatalf("recv: %v", err)
	}
	return m
}

// request sends a request and returns its response message.
func (c *wsClient) request(id int, req string) map[string]any {
	c.t.Helper()
	c.send(`{"type":"request","request_id":` + itoa(id) + `,"request":` + req + `}`)
	m := c.mustRecv()
	if got := jsonAt(m, "request_id"); got != float64(id) {
		c.t.Fatalf("response for request %v, want %d: %v", got, id, m)
	}
	return m
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func jsonAt(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return -1
}

func TestWebSocketHrana3(t *testing.T) {
	s := startServer(t, Config{})
	c := dialWS(t, s, "hrana3-protobuf", "hrana3", "hrana2")
	if got := c.ws.Subprotocol(); got != "hrana3" {
		t.Fatalf("subprotocol = %q, want hrana3", got)
	}
	c.send(`{"type":"hello","jwt":null}`)
	if m := c.mustRecv(); m["type"] != "hello_ok" {
		t.Fatalf("hello: %v", m)
	}
	ok := func(m map[string]any) map[string]any {
		t.Helper()
		if m["type"] != "response_ok" {
			t.Fatalf("response: %v", m)
		}
		return m["response"].(map[string]any)
	}
	ok(c.request(1, `{"type":"open_stream","stream_id":5}`))
	ok(c.request(2, `{"type":"execute","stream_id":5,"stmt":{"sql":"CREATE TABLE t(a INTEGER, b TEXT)"}}`))
	ok(c.request(3, `{"type":"store_sql","sql_id":1,"sql":"INSERT INTO t VALUES (?, ?)"}`))
	r := ok(c.request(4, `{"type":"batch","stream_id":5,"batch":{"steps":[
		{"stmt":{"sql_id":1,"args":[{"type":"integer","value":"1"},{"type":"text","value":"x"}]}},
		{"stmt":{"sql_id":1,"args":[{"type":"integer","value":"2"},{"type":"text","value":"y"}]},"condition":{"type":"ok","step":0}}]}}`))
	if jsonAt(r, "result", "step_results", 1, "last_insert_rowid") != "2" {
		t.Errorf("batch result: %v", r)
	}
	r = ok(c.request(5, `{"type":"describe","stream_id":5,"sql":"SELECT a FROM t WHERE b = ?"}`))
	if jsonAt(r, "result", "cols", 0, "decltype") != "INTEGER" || len(jsonAt(r, "result", "params").([]any)) != 1 {
		t.Errorf("describe: %v", r)
	}
	ok(c.request(6, `{"type":"execute","stream_id":5,"stmt":{"sql":"BEGIN"}}`))
	if r = ok(c.request(7, `{"type":"get_autocommit","stream_id":5}`)); r["is_autocommit"] != false {
		t.Errorf("get_autocommit in a transaction: %v", r)
	}
	ok(c.request(8, `{"type":"execute","stream_id":5,"stmt":{"sql":"COMMIT"}}`))

	ok(c.request(9, `{"type":"open_cursor","stream_id":5,"cursor_id":1,"batch":{"steps":[{"stmt":{"sql":"SELECT a, b FROM t ORDER BY a"}}]}}`))
	var types []string
	for done := false; !done; {
		r = ok(c.request(10, `{"type":"fetch_cursor","cursor_id":1,"max_count":2}`))
		for _, e := range r["entries"].([]any) {
			types = append(types, e.(map[string]any)["type"].(string))
		}
		done = r["done"].(bool)
	}
	if got := strings.Join(types, " "); got != "step_begin row row step_end" {
		t.Errorf("cursor entries = %q", got)
	}
	ok(c.request(11, `{"type":"close_cursor","cursor_id":1}`))

	// A statement error is a response_error; the stream stays usable.
	if m := c.request(12, `{"type":"execute","stream_id":5,"stmt":{"sql":"INSERT INTO nope VALUES (1)"}}`); m["type"] != "response_error" || !strings.Contains(jsonAt(m, "error", "message").(string), "no such table") {
		t.Errorf("statement error: %v", m)
	}
	r = ok(c.request(13, `{"type":"execute","stream_id":5,"stmt":{"sql":"SELECT count(*) FROM t"}}`))
	if jsonAt(r, "result", "rows", 0, 0, "value") != "2" {
		t.Errorf("count: %v", r)
	}
	ok(c.request(14, `{"type":"close_stream","stream_id":5}`))
	c.send(`{"type":"request","request_id":15,"request":{"type":"execute","stream_id":9,"stmt":{"sql":"SELECT 1"}}}`)
	if m, err := c.recv(); closeCode(err) != websocket.ClosePolicyViolation {
		t.Fatalf("request on an unknown stream: %v %v, want a policy-violation close", m, err)
	}
}

func TestWebSocketProtocolErrorsClose(t *testing.T) {
	s := startServer(t, Config{})
	tests := []struct {
		name string
		msgs []string
		code int
	}{
		{"request before hello", []string{`{"type":"request","request_id":1,"request":{"type":"open_stream","stream_id":1}}`}, websocket.ClosePolicyViolation},
		{"invalid JSON", []string{`{"type":`}, websocket.CloseInvalidFramePayloadData},
		{"unknown message", []string{`{"type":"goodbye"}`}, websocket.ClosePolicyViolation},
		{"hrana3 request on hrana2", []string{`{"type":"hello"}`, `{"type":"request","request_id":1,"request":{"type":"get_autocommit","stream_id":1}}`}, websocket.ClosePolicyViolation},
		{"duplicate stream", []string{`{"type":"hello"}`, `{"type":"request","request_id":1,"request":{"type":"open_stream","stream_id":1}}`, `{"type":"request","request_id":2,"request":{"type":"open_stream","stream_id":1}}`}, websocket.ClosePolicyViolation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialWS(t, s, "hrana2")
			for _, m := range tt.msgs {
				c.send(m)
			}
			var err error
			for err == nil {
				_, err = c.recv()
			}
			if got := closeCode(err); got != tt.code {
				t.Errorf("close code %d (%v), want %d", got, err, tt.code)
			}
		})
	}
	c := dialWS(t, s, "hrana2")
	c.ws.WriteMessage(websocket.BinaryMessage, []byte{1, 2})
	if _, err := c.recv(); closeCode(err) != websocket.CloseUnsupportedData {
		t.Errorf("binary frame: %v", err)
	}
}

func TestWebSocketHelloAuth(t *testing.T) {
	pub, priv := newKey(t)
	s := startServer(t, Config{AuthJWTKey: pemKey(t, pub)})

	c := dialWS(t, s, "hrana1")
	c.send(`{"type":"hello","jwt":"` + sign(t, priv, jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()}) + `"}`)
	c.send(`{"type":"request","request_id":1,"request":{"type":"open_stream","stream_id":0}}`)
	m := c.mustRecv()
	if m["type"] != "hello_error" || !strings.Contains(jsonAt(m, "error", "message").(string), "expired") {
		t.Fatalf("hello with an expired token: %v", m)
	}
	if _, err := c.recv(); closeCode(err) != websocket.ClosePolicyViolation {
		t.Errorf("after hello_error: %v, want a policy-violation close", err)
	}

	c = dialWS(t, s, "hrana1")
	c.send(`{"type":"hello","jwt":"` + sign(t, priv, jwt.MapClaims{"a": "ro"}) + `"}`)
	if m := c.mustRecv(); m["type"] != "hello_ok" {
		t.Fatalf("hello: %v", m)
	}
	c.request(1, `{"type":"open_stream","stream_id":0}`)
	m = c.request(2, `{"type":"execute","stream_id":0,"stmt":{"sql":"CREATE TABLE x(a)"}}`)
	if m["type"] != "response_error" || jsonAt(m, "error", "code") != "FORBIDDEN" {
		t.Errorf("write with a read-only token: %v", m)
	}
	if m = c.request(3, `{"type":"execute","stream_id":0,"stmt":{"sql":"SELECT 1"}}`); m["type"] != "response_ok" {
		t.Errorf("read with a read-only token: %v", m)
	}
}

func TestWebSocketUnknownNamespace(t *testing.T) {
	s := startServer(t, Config{})
	d := websocket.Dialer{Subprotocols: []string{"hrana2"}}
	_, resp, err := d.Dial("ws://"+s.Addr().String()+"/", http.Header{"X-Namespace": {"nope"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("dial to an unknown namespace: %v %v, want 404", err, resp)
	}
	_, resp, err = d.Dial("ws://"+s.Addr().String()+"/", http.Header{"Sec-WebSocket-Protocol": {"hrana9"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("dial with an unknown subprotocol: %v %v, want 400", err, resp)
	}
}
