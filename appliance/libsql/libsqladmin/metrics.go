package libsqladmin

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Metrics reads the server's Prometheus metrics (dwk libsql serves them
// at /metrics on the admin API; sqld does not) and returns the series
// without labels by name. A server without the endpoint yields an *Error
// with status 404.
func (c *Client) Metrics(ctx context.Context) (map[string]float64, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/metrics", nil)
	if err != nil {
		return nil, fmt.Errorf("libsql admin metrics: %w", err)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Basic "+c.key)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("libsql admin metrics: %w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("libsql admin metrics: read response: %w: %w", ErrUnavailable, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, responseError("metrics", "", resp.StatusCode, data)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || strings.ContainsRune(line, '{') {
			continue
		}
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
			out[name] = v
		}
	}
	return out, nil
}
