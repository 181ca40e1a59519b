package tail

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Event is one invocation of a worker, in the fields `wrangler tail
// --format json` prints, with the member that served it.
type Event struct {
	// ScriptName is the worker's name.
	ScriptName string `json:"scriptName"`
	// Member is the replica that served it.
	Member string `json:"member"`
	// Outcome is "ok", or "exception" for an answer of 500 or more (an
	// uncaught exception, a CPU limit, a failed binding).
	Outcome string `json:"outcome"`
	// EventTimestamp is when the request arrived, in Unix milliseconds.
	EventTimestamp int64 `json:"eventTimestamp"`
	// WallTimeMs is how long the worker took to answer.
	WallTimeMs int64 `json:"wallTime"`
	// Event is the request and its response.
	Event RequestEvent `json:"event"`
	// Logs are the records written while the request ran.
	Logs []Log `json:"logs"`
	// Exceptions is empty: an uncaught exception is among Logs, at level
	// "error", with its stack.
	Exceptions []any `json:"exceptions"`
}

// RequestEvent is Event.Event.
type RequestEvent struct {
	Request  Request  `json:"request"`
	Response Response `json:"response"`
}

// Request is the invocation's request. Headers leave out Authorization
// and Cookie, as wrangler tail redacts them.
type Request struct {
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Headers map[string]string `json:"headers"`
}

// Response is the invocation's response.
type Response struct {
	Status int `json:"status"`
}

// Log is one record written while the request ran.
type Log struct {
	// Level is "debug", "log" (info), "warn" or "error".
	Level string `json:"level"`
	// Message holds the record's message, as wrangler's array of
	// console arguments.
	Message []string `json:"message"`
	// Timestamp is when it was written, in Unix milliseconds.
	Timestamp int64 `json:"timestamp"`
}

// redacted are the request headers an event leaves out.
var redacted = map[string]bool{"Authorization": true, "Cookie": true}

// NewEvent is the event of a request to worker that member answered
// with status, having arrived at start.
func NewEvent(worker, member string, r *http.Request, status int, start time.Time, logs []Log) Event {
	h := make(map[string]string, len(r.Header))
	for k, vs := range r.Header {
		if !redacted[k] && len(vs) > 0 {
			h[k] = vs[0]
		}
	}
	url := r.URL.String()
	if r.URL.Host == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		url = scheme + "://" + r.Host + r.URL.RequestURI()
	}
	outcome := "ok"
	if status >= 500 {
		outcome = "exception"
	}
	if logs == nil {
		logs = []Log{}
	}
	return Event{
		ScriptName: worker, Member: member, Outcome: outcome,
		EventTimestamp: start.UnixMilli(), WallTimeMs: time.Since(start).Milliseconds(),
		Event: RequestEvent{Request: Request{URL: url, Method: r.Method, Headers: h}, Response: Response{Status: status}},
		Logs:  logs, Exceptions: []any{},
	}
}

// MaxLogs and MaxLogBytes bound what one event keeps of its request's
// records (a WebSocket's request lasts as long as the socket): past them,
// one last line says how many were left out, and a longer line is cut.
const (
	MaxLogs     = 100
	MaxLogBytes = 8 << 10
)

// detailKeys are the record attributes an event's line keeps after the
// message: why a request failed, and where.
var detailKeys = map[string]bool{"err": true, "stack": true}

// Collector gathers the log records of one request.
type Collector struct {
	mu      sync.Mutex
	logs    []Log
	dropped int
}

func (c *Collector) add(rec slog.Record) {
	msg := []string{cut(rec.Message)}
	rec.Attrs(func(a slog.Attr) bool {
		if detailKeys[a.Key] {
			if v := a.Value.String(); v != "" {
				msg = append(msg, cut(v))
			}
		}
		return true
	})
	l := Log{Level: levelName(rec.Level), Message: msg, Timestamp: rec.Time.UnixMilli()}
	c.mu.Lock()
	if len(c.logs) < MaxLogs {
		c.logs = append(c.logs, l)
	} else {
		c.dropped++
	}
	c.mu.Unlock()
}

func cut(s string) string {
	if len(s) <= MaxLogBytes {
		return s
	}
	return s[:MaxLogBytes] + "… (cut)"
}

// Logs returns what was gathered so far.
func (c *Collector) Logs() []Log {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]Log(nil), c.logs...)
	if c.dropped > 0 {
		out = append(out, Log{Level: "warn", Message: []string{fmt.Sprintf("dwk tail: %d more lines left out of this event", c.dropped)}, Timestamp: time.Now().UnixMilli()})
	}
	return out
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "log"
	case l < slog.LevelError:
		return "warn"
	}
	return "error"
}
