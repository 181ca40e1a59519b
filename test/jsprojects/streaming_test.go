package jsprojects

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseEvent is one server-sent event and when the test read it.
type sseEvent struct {
	id, name string
	data     struct {
		I          int   `json:"i"`
		Of         int   `json:"of"`
		ProducedAt int64 `json:"producedAt"`
	}
	arrived time.Time
}

// readEvents reads server-sent events from body as they arrive.
func readEvents(t *testing.T, body io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var ev sseEvent
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			ev.arrived = time.Now()
			out = append(out, ev)
			ev = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			ev.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data); err != nil {
				t.Fatalf("event data %q: %v", line, err)
			}
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the events: %v", err)
	}
	return out
}

// testStreaming reads server-sent events as they are produced, from a
// ReadableStream fed by timers and from a TransformStream's writer, and
// sends a streamed body through a TransformStream that upper-cases it.
func testStreaming(t *testing.T, s *site) {
	const n, interval = 5, 300
	for i, path := range []string{"/streaming/sse", "/streaming/sse-writer"} {
		t.Run(strings.TrimPrefix(path, "/streaming/"), func(t *testing.T) {
			resp, err := client.Get(s.url(i, fmt.Sprintf("%s?n=%d&interval=%d", path, n, interval)))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("got %s, %q", resp.Status, resp.Header.Get("Content-Type"))
			}
			events := readEvents(t, resp.Body)
			if len(events) != n {
				t.Fatalf("got %d events, want %d", len(events), n)
			}
			for i, ev := range events {
				if ev.id != fmt.Sprint(i) || ev.name != "tick" || ev.data.I != i || ev.data.Of != n {
					t.Errorf("event %d = %+v", i, ev)
				}
				if i > 0 {
					if gap := ev.data.ProducedAt - events[i-1].data.ProducedAt; gap < interval-20 {
						t.Errorf("event %d was produced %d ms after the one before, want about %d", i, gap, interval)
					}
				}
			}
			// The stream is not buffered: the first event was read before
			// the worker produced the last one.
			first, last := events[0].arrived, time.UnixMilli(events[n-1].data.ProducedAt)
			if !first.Before(last) {
				t.Errorf("the first event arrived at %v, after the last was produced at %v", first.Format(time.StampMilli), last.Format(time.StampMilli))
			}
		})
	}

	t.Run("upper-case a streamed body", func(t *testing.T) {
		// The body goes up in chunks (chunked encoding), with a
		// two-byte character split between two of them.
		chunks := []string{"hello, ", "w\xc3", "\xb6rld ", "ünïcode\n", strings.Repeat("streams all the way down. ", 4000)}
		pr, pw := io.Pipe()
		go func() {
			for _, c := range chunks {
				if _, err := pw.Write([]byte(c)); err != nil {
					return
				}
			}
			pw.Close()
		}()
		req, err := http.NewRequest("POST", s.url(1, "/streaming/upper"), pr)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.ToUpper(strings.Join(chunks, "")); resp.StatusCode != 200 || string(got) != want {
			t.Errorf("got %s with %d bytes (%.40q…), want %d bytes (%.40q…)", resp.Status, len(got), got, len(want), want)
		}
	})

	t.Run("the answer streams while the body is sent", func(t *testing.T) {
		// Each line goes up only once the one before came back upper-cased:
		// request and response are both open all along.
		pr, pw := io.Pipe()
		defer pw.Close()
		req, err := http.NewRequest("POST", s.url(0, "/streaming/upper"), pr)
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			resp *http.Response
			err  error
		}
		answered := make(chan answer, 1)
		go func() {
			resp, err := client.Do(req)
			answered <- answer{resp, err}
		}()
		lines := []string{"first line\n", "second line\n", "third line\n"}
		if _, err := pw.Write([]byte(lines[0])); err != nil {
			t.Fatal(err)
		}
		var a answer
		select {
		case a = <-answered:
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10 s while the body is still open: the worker's response waits for the whole body")
		}
		if a.err != nil {
			t.Fatal(a.err)
		}
		defer a.resp.Body.Close()
		rd := bufio.NewReader(a.resp.Body)
		for i, line := range lines {
			if i > 0 {
				if _, err := pw.Write([]byte(line)); err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
			}
			got := make(chan string, 1)
			go func() {
				l, _ := rd.ReadString('\n')
				got <- l
			}()
			select {
			case l := <-got:
				if want := strings.ToUpper(line); l != want {
					t.Fatalf("line %d came back %q, want %q", i, l, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("line %d did not come back within 10 s of being sent", i)
			}
		}
		pw.Close()
		if rest, err := io.ReadAll(rd); err != nil || len(rest) != 0 {
			t.Errorf("after the body ended: %q, %v; want the end of the answer", rest, err)
		}
	})
}
