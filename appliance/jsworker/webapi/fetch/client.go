package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// maxRedirects is how many redirects fetch follows, as workerd.
const maxRedirects = 20

// client is the HTTP client of every outgoing fetch.
var client = &http.Client{
	Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
	},
}

// abortToken cancels one fetch when its AbortSignal fires.
type abortToken struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// errAborted is the cause of a fetch cancelled by its signal.
var errAborted = errors.New("the fetch was aborted")

type redirectMode int

const (
	followRedirects redirectMode = iota
	manualRedirects
	errorRedirects
)

type redirectKey struct{}

func init() {
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		switch req.Context().Value(redirectKey{}) {
		case manualRedirects:
			return http.ErrUseLastResponse
		case errorRedirects:
			return fmt.Errorf("redirect to %s: the request's redirect mode is \"error\"", req.URL)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("too many redirects (%d)", len(via))
		}
		return nil
	}
}

func installClient(iso *jsrt.Isolate, f *goja.Object) {
	rt := iso.Runtime()
	f.Set("abortToken", func(goja.FunctionCall) goja.Value {
		ctx, cancel := context.WithCancelCause(iso.Current().Context())
		return rt.ToValue(&abortToken{ctx: ctx, cancel: cancel})
	})
	f.Set("abort", func(c goja.FunctionCall) goja.Value {
		if t, ok := c.Argument(0).Export().(*abortToken); ok {
			t.cancel(errAborted)
		}
		return goja.Undefined()
	})
	// send(method, url, flat headers, body kind, body, redirect, token)
	f.Set("send", func(c goja.FunctionCall) goja.Value {
		ev := iso.Current()
		method := c.Argument(0).String()
		url := c.Argument(1).String()
		header := headerOf(rt, c.Argument(2))
		b, err := takeBody(ev, int(c.Argument(3).ToInteger()), c.Argument(4))
		if err != nil {
			return iso.Rejected(err)
		}
		mode := followRedirects
		switch c.Argument(5).String() {
		case "manual":
			mode = manualRedirects
		case "error":
			mode = errorRedirects
		}
		var token *abortToken
		if t, ok := c.Argument(6).Export().(*abortToken); ok {
			token = t
		}
		return iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
			if token != nil {
				ctx = token.ctx
			}
			resp, err := send(ctx, method, url, header, b, mode)
			if err != nil {
				return nil, err
			}
			gb := &goBody{r: resp.Body}
			ev.Defer(func() { gb.Close() })
			return func(rt *goja.Runtime) (goja.Value, error) {
				text := strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
				var h goja.Value = goja.Null()
				if resp.Body != http.NoBody && method != http.MethodHead {
					h = rt.ToValue(gb)
				}
				return rt.NewArray(resp.StatusCode, text, flatHeaders(rt, resp.Header), h, resp.Request.URL.String(), resp.Request.URL.String() != url), nil
			}, nil
		})
	})
}

// send makes one outgoing request. An object's event opens its input gate
// while it waits (worker.Await).
func send(ctx context.Context, method, url string, header http.Header, b body, mode redirectMode) (*http.Response, error) {
	var r io.Reader
	switch b.kind {
	case kindBytes:
		r = bytes.NewReader(b.bytes)
	case kindGo:
		r = b.goBody
	case kindStream:
		r = b.stream
	}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, redirectKey{}, mode), method, url, r)
	if err != nil {
		return nil, jsrt.Errorf("TypeError", "fetch: %v", err)
	}
	req.Header = header
	switch b.kind {
	case kindBytes:
		req.ContentLength = int64(len(b.bytes))
	case kindGo, kindStream:
		req.ContentLength = -1
	}
	var resp *http.Response
	err = worker.Await(ctx, func() error {
		var err error
		resp, err = client.Do(req)
		return err
	})
	if err != nil {
		if errors.Is(context.Cause(ctx), errAborted) {
			return nil, jsrt.Errorf("AbortError", "The operation was aborted.")
		}
		return nil, jsrt.Errorf("TypeError", "fetch %s %s: %v", method, url, err)
	}
	return resp, nil
}
