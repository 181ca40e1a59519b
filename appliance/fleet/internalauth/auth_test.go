package internalauth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newAuth(t *testing.T, secret string, c *clock, o Options) *Auth {
	t.Helper()
	o.Now = c.now
	a, err := New([]byte(secret), o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// echo answers with the body it read, or 400 with the read error.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if r.Header.Get(Header) != "" {
		http.Error(w, "signature reached the handler", http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, "%s %d %s", r.Method, r.ContentLength, b)
})

func do(t *testing.T, c *http.Client, method, url string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestSignedRequestsPass(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	a := newAuth(t, "secret", c, Options{})
	srv := httptest.NewServer(a.Middleware(echo))
	defer srv.Close()
	client := &http.Client{Transport: a.Transport(nil)}
	tests := []struct {
		name, method string
		body         io.Reader
		want         string
	}{
		{"no body", "GET", nil, "GET 0 "},
		{"known length", "POST", strings.NewReader("hello"), "POST 5 hello"},
		{"unknown length", "PUT", io.MultiReader(strings.NewReader("a"), strings.NewReader("bc")), "PUT -1 abc"},
		{"large", "POST", bytes.NewReader(bytes.Repeat([]byte("x"), 1<<20)), "POST 1048576 " + strings.Repeat("x", 1<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, got := do(t, client, tt.method, srv.URL+"/p/a%2Fb?q=1&r=%20", tt.body)
			if code != 200 || got != tt.want {
				t.Errorf("got %d %.60q, want 200 %.60q", code, got, tt.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	a := newAuth(t, "secret", c, Options{Window: 10 * time.Second})
	other := newAuth(t, "other", c, Options{})
	srv := httptest.NewServer(a.Middleware(echo))
	defer srv.Close()

	sign := func(s *Auth, method, path string, body io.Reader) *http.Request {
		req, _ := http.NewRequest(method, srv.URL+path, body)
		out, err := s.Sign(req)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	send := func(req *http.Request) (int, string) {
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	t.Run("unsigned", func(t *testing.T) {
		code, msg := do(t, http.DefaultClient, "GET", srv.URL+"/x", nil)
		if code != 401 || !strings.Contains(msg, "missing signature") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("bad MAC: other secret", func(t *testing.T) {
		code, msg := send(sign(other, "GET", "/x", nil))
		if code != 401 || !strings.Contains(msg, "bad MAC") || !strings.Contains(msg, "same fleet secret") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("bad MAC: path changed", func(t *testing.T) {
		req := sign(a, "GET", "/x", nil)
		req.URL.Path = "/y"
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "bad MAC") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("bad MAC: query changed", func(t *testing.T) {
		req := sign(a, "GET", "/x?a=1", nil)
		req.URL.RawQuery = "a=2"
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "bad MAC") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("bad MAC: method changed", func(t *testing.T) {
		req := sign(a, "GET", "/x", nil)
		req.Method = "DELETE"
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "bad MAC") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		req, _ := http.NewRequest("GET", srv.URL+"/x", nil)
		req.Header.Set(Header, "v1 deadbeef")
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "malformed") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("expired", func(t *testing.T) {
		req := sign(a, "GET", "/x", nil)
		c.add(11 * time.Second)
		defer c.add(-11 * time.Second)
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "outside the replay window") || !strings.Contains(msg, "check the clocks") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("from the future", func(t *testing.T) {
		c.add(11 * time.Second)
		req := sign(a, "GET", "/x", nil)
		c.add(-11 * time.Second)
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "outside the replay window") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("replayed", func(t *testing.T) {
		req := sign(a, "GET", "/x", nil)
		if code, msg := send(req); code != 200 {
			t.Fatalf("first: got %d %q", code, msg)
		}
		c.add(9 * time.Second) // still inside the window
		defer c.add(-9 * time.Second)
		if code, msg := send(req.Clone(req.Context())); code != 401 || !strings.Contains(msg, "replayed nonce") {
			t.Errorf("replay: got %d %q", code, msg)
		}
	})
	t.Run("small body altered: refused before the handler", func(t *testing.T) {
		req := sign(a, "POST", "/x", strings.NewReader("hello"))
		req.Body = io.NopCloser(strings.NewReader("HELLO"))
		code, msg := send(req)
		if code != 401 || !strings.Contains(msg, "does not match its signature") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("small body cut short", func(t *testing.T) {
		req := sign(a, "POST", "/x", strings.NewReader("hello"))
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader("hell")), 4
		code, msg := send(req)
		if code != 401 || !strings.Contains(msg, "4 bytes arrived, not the signed 5") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("streamed body altered: the read fails at its end", func(t *testing.T) {
		req := sign(a, "POST", "/x", io.MultiReader(strings.NewReader("hello")))
		signed := req.Body
		req.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(strings.NewReader("HELLO"), readerFunc(func(p []byte) (int, error) {
			io.Copy(io.Discard, signed) // ends the signed body, which sets the trailer
			return 0, io.EOF
		})), signed}
		code, msg := send(req)
		if code != 400 || !strings.Contains(msg, BodyTrailer+" does not match") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("body added to a signed empty request", func(t *testing.T) {
		req := sign(a, "POST", "/x", nil)
		req.Body = io.NopCloser(strings.NewReader("extra"))
		req.ContentLength = 5
		if code, msg := send(req); code != 401 || !strings.Contains(msg, "without a body") {
			t.Errorf("got %d %q", code, msg)
		}
	})
	t.Run("body trailer stripped", func(t *testing.T) {
		req := sign(a, "POST", "/x", io.MultiReader(strings.NewReader("hello")))
		b, _ := io.ReadAll(req.Body) // sets the trailer, which is then dropped
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.ContentLength = int64(len(b))
		req.Trailer = nil
		code, msg := send(req)
		if code != 400 || !strings.Contains(msg, "no "+BodyTrailer+" trailer") {
			t.Errorf("got %d %q", code, msg)
		}
	})
}

func TestReplayMemoryIsBounded(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	a := newAuth(t, "secret", c, Options{Window: time.Second, MaxNonces: 3})
	signed := func() *http.Request {
		req := httptest.NewRequest("GET", "/x", nil)
		out, err := a.Sign(req)
		if err != nil {
			t.Fatal(err)
		}
		out.RequestURI = "/x"
		return out
	}
	for i := range 3 {
		if _, err := a.Verify(signed()); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if _, err := a.Verify(signed()); !errors.Is(err, ErrBusy) {
		t.Fatalf("4th request in the window: err = %v, want ErrBusy", err)
	}
	rec := httptest.NewRecorder()
	a.Middleware(echo).ServeHTTP(rec, signed())
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("full memory: got %d, Retry-After %q; want 503 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
	// Nonces age out after twice the window (two generations of 2s).
	c.add(4 * time.Second)
	if _, err := a.Verify(signed()); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if n := a.nonces.len(); n != 1 {
		t.Errorf("nonces held = %d, want 1", n)
	}
}

func TestReplayRefusedForTheWholeWindow(t *testing.T) {
	// A nonce is remembered at least as long as its timestamp is
	// acceptable, whenever in the generation it arrived.
	for _, offset := range []time.Duration{0, 999 * time.Millisecond, 1500 * time.Millisecond, 1999 * time.Millisecond} {
		c := &clock{t: time.Unix(1_700_000_000, 0)}
		a := newAuth(t, "secret", c, Options{Window: time.Second})
		warm := httptest.NewRequest("GET", "/w", nil)
		w, _ := a.Sign(warm)
		w.RequestURI = "/w"
		if _, err := a.Verify(w); err != nil {
			t.Fatal(err)
		}
		c.add(offset)
		req, _ := a.Sign(httptest.NewRequest("GET", "/x", nil))
		req.RequestURI = "/x"
		c.add(-time.Second) // signed by a clock one window ahead
		if _, err := a.Verify(req.Clone(req.Context())); err != nil {
			t.Fatalf("offset %s: first: %v", offset, err)
		}
		for step := time.Duration(0); step <= 2*time.Second; step += 100 * time.Millisecond {
			_, err := a.Verify(req.Clone(req.Context()))
			if !errors.Is(err, ErrReplayed) && !errors.Is(err, ErrExpired) {
				t.Fatalf("offset %s, +%s: replay err = %v", offset, step, err)
			}
			c.add(100 * time.Millisecond)
		}
	}
}

func TestNewAndRedaction(t *testing.T) {
	if _, err := New(nil, Options{}); !errors.Is(err, ErrNoSecret) {
		t.Errorf("New(nil) err = %v, want ErrNoSecret", err)
	}
	a, _ := New([]byte("s1"), Options{})
	for _, s := range []string{fmt.Sprint(a), fmt.Sprintf("%v %+v %#v", a, a, a)} {
		if strings.Contains(s, fmt.Sprintf("%x", a.key)) || !strings.Contains(s, "redacted") {
			t.Errorf("formatting leaks the key: %s", s)
		}
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
