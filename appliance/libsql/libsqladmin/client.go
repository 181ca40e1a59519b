package libsqladmin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// Config configures a Client.
type Config struct {
	// URL is the admin API's base URL (sqld's --admin-listen-addr), e.g.
	// http://127.0.0.1:9090.
	URL string `json:"url"`
	// AdminKey is sent as "Authorization: Basic <key>" when not empty.
	AdminKey string `json:"admin_key"`
	// HTTPClient sends the requests. Default: a new http.Client.
	HTTPClient *http.Client `json:"-"`
	// CAFile, when set, is the PEM CA an https:// admin API's certificate
	// must chain to (see hranaclient.TrustCA). Default: "".
	CAFile string `json:"ca_file"`
	// Timeout bounds every call without an earlier deadline. Default: 30s
	// (sqld may take a while to create a namespace).
	Timeout time.Duration `json:"timeout"`
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.URL == "" {
		return errors.New("libsqladmin: url is required")
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return fmt.Errorf("libsqladmin: url %q: %w", c.URL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("libsqladmin: url %q must be http(s)://host[:port]", c.URL)
	}
	return nil
}

// Client calls one server's admin API. It is safe for concurrent use.
type Client struct {
	base    string
	key     string
	hc      *http.Client
	timeout time.Duration
}

// New returns a client for cfg, filling defaults. It does no I/O.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	if cfg.CAFile != "" {
		var err error
		if hc, err = hranaclient.WithCA(hc, cfg.CAFile); err != nil {
			return nil, err
		}
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	return &Client{base: strings.TrimRight(cfg.URL, "/"), key: cfg.AdminKey, hc: hc, timeout: timeout}, nil
}

// CloseIdleConnections closes the idle keep-alive connections of the
// client's HTTP client. Calls made afterwards open new connections.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// call sends one request; out, if not nil, receives the JSON answer of a
// 200. Failures are *Error (refused) or errors wrapping ErrUnavailable.
func (c *Client) call(ctx context.Context, op, ns, method, path string, body, out any) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("libsql admin %s %s: encode: %w", op, ns, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("libsql admin %s %s: %w", op, ns, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Basic "+c.key)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("libsql admin %s %s: %w: %w", op, ns, ErrUnavailable, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("libsql admin %s %s: read response: %w: %w", op, ns, ErrUnavailable, err)
	}
	if resp.StatusCode/100 != 2 {
		return responseError(op, ns, resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("libsql admin %s %s: malformed response %.200q: %w", op, ns, data, err)
		}
	}
	return nil
}

func responseError(op, ns string, status int, data []byte) *Error {
	var b struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Code    string `json:"code"`
	}
	e := &Error{Op: op, Namespace: ns, Status: status}
	if json.Unmarshal(data, &b) == nil && (b.Message != "" || b.Error != "") {
		e.Code, e.Message = b.Code, b.Message
		if e.Message == "" {
			e.Message = b.Error
		}
	} else {
		e.Message = strings.TrimSpace(string(data))
		if len(e.Message) > 512 {
			e.Message = e.Message[:512] + "…"
		}
		if e.Message == "" {
			e.Message = http.StatusText(status)
		}
	}
	e.kind = classify(status, e.Code, e.Message)
	return e
}

// isNotFoundMessage recognises sqld's "Namespace `x` doesn't exist", which
// some versions send with status 400.
func isNotFoundMessage(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "namespace") &&
		(strings.Contains(m, "doesn't exist") || strings.Contains(m, "does not exist") || strings.Contains(m, "not found"))
}

// isExistsMessage recognises "Namespace `x` already exists" (sqld) and
// "namespace already exists: x" (dwk libsql).
func isExistsMessage(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "already exist")
}
