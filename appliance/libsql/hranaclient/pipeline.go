package hranaclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// maxResponseSize bounds the response bodies the client reads; servers
// cap responses far lower (sqld and dwk libsql: 10 MiB of rows).
const maxResponseSize = 128 << 20

// pipeline sends one pipeline request to base and returns the server's
// response, which holds one result per request. It retries only while the
// request has not been written.
func (c *Client) pipeline(ctx context.Context, op, base string, baton *string, reqs []hrana.StreamRequest) (*hrana.PipelineResponse, error) {
	body, err := json.Marshal(hrana.PipelineRequest{Baton: baton, Requests: reqs})
	if err != nil {
		return nil, fmt.Errorf("hrana %s: encode request: %w", op, err)
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	for attempt := 1; ; attempt++ {
		url := base + "/v3/pipeline"
		if c.shared.v2.Load() {
			url = base + "/v2/pipeline"
		}
		status, data, sent, err := c.post(ctx, url, body)
		if err != nil {
			terr := &TransportError{Op: op, URL: url, Sent: sent, Err: err}
			if sent || ctx.Err() != nil || attempt >= c.maxAttempts {
				return nil, terr
			}
			if err := sleep(ctx, time.Duration(attempt)*20*time.Millisecond); err != nil {
				return nil, &TransportError{Op: op, URL: url, Err: fmt.Errorf("%w (after %v)", err, terr.Err)}
			}
			continue
		}
		if status == http.StatusNotFound && !c.shared.v2.Load() && !isHranaErrorBody(data) {
			// No /v3 here: the request was not executed, so resend it
			// with Hrana 2.
			c.shared.v2.Store(true)
			attempt--
			continue
		}
		if status != http.StatusOK {
			return nil, httpError(op, status, data)
		}
		var resp hrana.PipelineResponse
		// Called directly: json.Unmarshal would validate the body once
		// more before calling it.
		if err := resp.UnmarshalJSON(data); err != nil {
			return nil, fmt.Errorf("hrana %s %s: malformed response: %v: %w", op, url, err, ErrOutcomeUnknown)
		}
		if len(resp.Results) != len(reqs) {
			return nil, fmt.Errorf("hrana %s %s: %d results for %d requests: %w", op, url, len(resp.Results), len(reqs), ErrOutcomeUnknown)
		}
		return &resp, nil
	}
}

// post sends one HTTP request and reads the whole response. sent reports
// whether the request was written (and so may have been executed).
func (c *Client) post(ctx context.Context, url string, body []byte) (status int, data []byte, sent bool, err error) {
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.namespace != "" {
		req.Header.Set("x-namespace", c.namespace)
	}
	c.countRoundTrip(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, wrote.Load(), err
	}
	defer resp.Body.Close()
	data, err = io.ReadAll(io.LimitReader(resp.Body, maxResponseSize+1))
	if err != nil {
		return 0, nil, true, fmt.Errorf("read response: %w", err)
	}
	if len(data) > maxResponseSize {
		return 0, nil, true, fmt.Errorf("response larger than %d bytes", maxResponseSize)
	}
	return resp.StatusCode, data, true, nil
}

// countRoundTrip counts one request sent: in the client's total, with
// OnRoundTrip, and in the Tally of ctx.
func (c *Client) countRoundTrip(ctx context.Context) {
	c.shared.roundTrips.Add(1)
	if c.onRoundTrip != nil {
		c.onRoundTrip()
	}
	if t := TallyFrom(ctx); t != nil {
		t.add(c.namespace)
	}
}

// errorBody is the error shape of sqld ("error") and of Hrana clients
// ("message", "code"); dwk libsql sends all three.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

func isHranaErrorBody(data []byte) bool {
	var b errorBody
	return json.Unmarshal(data, &b) == nil && (b.Error != "" || b.Message != "")
}

// httpError turns a non-200 response into an *Error.
func httpError(op string, status int, data []byte) *Error {
	e := &Error{Op: op, Status: status}
	var b errorBody
	if json.Unmarshal(data, &b) == nil && (b.Message != "" || b.Error != "") {
		e.Code, e.Message = b.Code, b.Message
		if e.Message == "" {
			e.Message = b.Error
		}
		return e
	}
	msg := strings.TrimSpace(string(data))
	if len(msg) > 512 {
		msg = msg[:512] + "…"
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	e.Message = msg
	return e
}

// resultError turns a failed pipeline result or statement into an *Error.
func resultError(op string, he *hrana.Error) *Error {
	return &Error{Op: op, Code: he.Code, Message: he.Message}
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errMalformed reports a response that lacks what its request implies.
func errMalformed(op, what string) error {
	return fmt.Errorf("hrana %s: malformed response: %s: %w", op, what, ErrOutcomeUnknown)
}
