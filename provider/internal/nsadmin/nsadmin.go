// Package nsadmin is the part of sqld's admin API that dwk_database uses:
// appliance/libsql/libsqladmin for create, delete and read, plus SetConfig, which
// libsqladmin does not offer (yet). When it does, SetConfig goes.
package nsadmin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
)

// Client talks to one admin API.
type Client struct {
	*libsqladmin.Client
	base string
	key  string
	hc   *http.Client
}

// New returns a client of the admin API at base, authenticating with key
// when it is not empty, and checking an https:// server against the CA
// certificates in caFile when it is set. It does no I/O.
func New(base, key, caFile string) (*Client, error) {
	hc := &http.Client{Timeout: 30 * time.Second}
	if caFile != "" {
		var err error
		if hc, err = hranaclient.WithCA(hc, caFile); err != nil {
			return nil, err
		}
	}
	c, err := libsqladmin.New(libsqladmin.Config{URL: base, AdminKey: key, HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	return &Client{Client: c, base: strings.TrimRight(base, "/"), key: key, hc: hc}, nil
}

// Block is the access part of a namespace's configuration.
type Block struct {
	BlockReads  bool    `json:"block_reads"`
	BlockWrites bool    `json:"block_writes"`
	BlockReason *string `json:"block_reason"`
}

// SetConfig sets the namespace's block settings with POST
// /v1/namespaces/{ns}/config (sqld and dwk libsql keep the fields the
// request leaves out).
func (c *Client) SetConfig(ctx context.Context, ns string, b Block) error {
	body, err := json.Marshal(b)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/namespaces/"+url.PathEscape(ns)+"/config", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("libsql admin config %s: %w", ns, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Basic "+c.key)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("libsql admin config %s: %w: %w", ns, libsqladmin.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		e := &libsqladmin.Error{Op: "config", Namespace: ns, Status: resp.StatusCode, Message: strings.TrimSpace(string(msg))}
		var m struct{ Message, Error string }
		if json.Unmarshal(msg, &m) == nil && (m.Message != "" || m.Error != "") {
			e.Message = m.Message + m.Error
		}
		if resp.StatusCode == http.StatusNotFound {
			return fmt.Errorf("%w: %w", libsqladmin.ErrNotFound, e)
		}
		return e
	}
	return nil
}
