// Package adminclient calls a replica's admin API (see appliance/server):
// `dwk status` and `dwk drain` use it, and so does a replica's fleet page
// to reach its peers' admin listeners.
package adminclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxAnswer bounds the answer body read.
const maxAnswer = 1 << 20

// Client calls admin APIs with one token.
type Client struct {
	// Token is sent as "Authorization: Bearer <Token>".
	Token string
	// HTTP sends the requests. Default: http.DefaultClient; callers bound
	// each call with the context's deadline.
	HTTP *http.Client
}

// Call sends method to base+path (base is the admin API's URL, such as
// http://127.0.0.1:8789) and decodes a JSON answer into out, unless out is
// nil. An answer of 300 or more is an error carrying the API's "error"
// text.
func (c Client) Call(ctx context.Context, method, base, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, base+path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s %s: read answer: %w", method, base+path, err)
	}
	if resp.StatusCode >= 300 {
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if e.Error == "" {
			e.Error = strings.TrimSpace(string(body))
		}
		return fmt.Errorf("%s %s: %s: %s", method, base+path, resp.Status, e.Error)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return fmt.Errorf("%s %s: decode answer: %w", method, base+path, err)
		}
	}
	return nil
}
