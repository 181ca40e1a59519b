package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Report is a replica's GET /admin/status answer: the JSON form of
// appliance/server.StatusReport, kept as its own type so that the provider
// does not link the whole application server (a test checks the two agree).
type Report struct {
	Member     string    `json:"member"`
	Fleet      string    `json:"fleet"`
	Mode       string    `json:"mode"`
	State      string    `json:"state"`
	Version    string    `json:"version"`
	Schema     int       `json:"schema"`
	Public     string    `json:"public"`
	Internal   string    `json:"internal,omitempty"`
	ConfigHash string    `json:"config_hash"`
	Started    time.Time `json:"started"`
	Leases     int       `json:"leases"`
	InFlight   int64     `json:"in_flight"`
	WebSockets int       `json:"websockets"`
}

// httpClient calls the replica's admin listener through the host's Target.
func httpClient(h *Host) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return h.Target.DialContext(ctx, network, h.AdminAddr)
			},
			TLSClientConfig:   h.AdminTLS,
			DisableKeepAlives: true,
		},
		Timeout: 10 * time.Second,
	}
}

// adminURL is the URL of path on the replica's admin listener.
func (h *Host) adminURL(path string) string {
	if h.AdminTLS != nil {
		return "https://" + h.AdminAddr + path
	}
	return "http://" + h.AdminAddr + path
}

// probe is one GET of the program's ready path: ok, and a description of the answer (status
// and body) or of the error.
func probe(ctx context.Context, c *http.Client, h *Host) (bool, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.adminURL(h.program().ReadyPath), nil)
	if err != nil {
		return false, err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return resp.StatusCode == http.StatusOK, fmt.Sprintf("%s %s", resp.Status, strings.TrimSpace(string(body)))
}

// ErrNotReady is wrapped by WaitReady and WaitHealthy failures.
var ErrNotReady = errors.New("replica not ready")

// WaitReady polls /readyz on the admin listener until it answers 200, for
// at most timeout. The error names the last answer or connection error and
// carries the replica's last log lines.
func (d *Deployer) WaitReady(ctx context.Context, h *Host, service string, timeout time.Duration) error {
	c := httpClient(h)
	deadline := d.Now().Add(timeout)
	last := "no answer yet"
	for {
		ok, answer := probe(ctx, c, h)
		if ok {
			return nil
		}
		last = answer
		if ctx.Err() != nil || !d.Now().Before(deadline) {
			break
		}
		if err := d.Sleep(ctx, d.Poll); err != nil {
			break
		}
	}
	return fmt.Errorf("%w: GET %s did not answer 200 within %s; last answer: %s%s",
		ErrNotReady, h.adminURL(h.program().ReadyPath), timeout, last, logTail(ctx, h, service))
}

// WaitHealthy requires /readyz to answer 200 at every poll for d.
func (d *Deployer) WaitHealthy(ctx context.Context, h *Host, service string, dur time.Duration) error {
	if dur <= 0 {
		return nil
	}
	c := httpClient(h)
	until := d.Now().Add(dur)
	for d.Now().Before(until) {
		if ok, answer := probe(ctx, c, h); !ok {
			return fmt.Errorf("%w: %s stopped answering 200 before min_healthy_time (%s) passed: %s%s",
				ErrNotReady, h.program().ReadyPath, dur, answer, logTail(ctx, h, service))
		}
		if err := d.Sleep(ctx, d.Poll); err != nil {
			return err
		}
	}
	return nil
}

func logTail(ctx context.Context, h *Host, service string) string {
	// The caller's context may be what ran out; the log is worth a few
	// more seconds.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	logs := strings.TrimSpace(manager(service).logs(ctx, h))
	if logs == "" {
		return ""
	}
	return "\n\nLast lines the " + h.program().Kind + " logged:\n" + logs
}

// Status asks the replica's admin API for its status report.
func (d *Deployer) Status(ctx context.Context, h *Host) (Report, error) {
	var r Report
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.adminURL("/admin/status"), nil)
	if err != nil {
		return r, err
	}
	req.Header.Set("Authorization", "Bearer "+h.AdminToken)
	resp, err := httpClient(h).Do(req)
	if err != nil {
		return r, fmt.Errorf("GET /admin/status: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		return r, fmt.Errorf("GET /admin/status: %s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return r, fmt.Errorf("GET /admin/status: %w", err)
	}
	return r, nil
}
