package libsqladmin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
)

// Create creates namespace ns with the server's default configuration. A
// namespace that already exists is not an error (its configuration is left
// as it is), so Create can be called on every start.
func (c *Client) Create(ctx context.Context, ns string) error {
	_, err := c.CreateNew(ctx, ns)
	return err
}

// CreateNew is Create, and also reports whether this call made the
// namespace (false: it existed already).
func (c *Client) CreateNew(ctx context.Context, ns string) (bool, error) {
	err := c.call(ctx, "create", ns, http.MethodPost, nsPath(ns)+"/create", struct{}{}, nil)
	var e *Error
	if err == nil {
		return true, nil
	}
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest && e.Status != http.StatusConflict {
		return false, err
	}
	if isExistsMessage(e.Message) {
		return false, nil
	}
	// Some servers word it differently: a namespace that exists now is
	// what the caller wanted.
	if ok, xerr := c.Exists(ctx, ns); xerr == nil && ok {
		return false, nil
	}
	return false, err
}

// Delete deletes namespace ns and its data. A missing namespace yields an
// error wrapping ErrNotFound; callers that want idempotence test for it.
func (c *Client) Delete(ctx context.Context, ns string) error {
	return c.call(ctx, "delete", ns, http.MethodDelete, nsPath(ns), nil, nil)
}

// Exists reports whether namespace ns exists.
func (c *Client) Exists(ctx context.Context, ns string) (bool, error) {
	_, err := c.Config(ctx, ns)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound):
		return false, nil
	}
	return false, err
}

// NamespaceConfig is a namespace's configuration as sqld reports it. Fields
// a server does not send are zero; Raw holds the whole answer.
type NamespaceConfig struct {
	// BlockReads and BlockWrites refuse reads or writes; BlockReason is
	// added to the refusal.
	BlockReads  bool    `json:"block_reads"`
	BlockWrites bool    `json:"block_writes"`
	BlockReason *string `json:"block_reason"`
	// JWTKey, when set, replaces the server's JWT keys for the namespace.
	JWTKey *string `json:"jwt_key"`
	// Raw is the configuration exactly as received.
	Raw json.RawMessage `json:"-"`
}

// Config returns the configuration of namespace ns, or an error wrapping
// ErrNotFound.
func (c *Client) Config(ctx context.Context, ns string) (NamespaceConfig, error) {
	var raw json.RawMessage
	if err := c.call(ctx, "config", ns, http.MethodGet, nsPath(ns)+"/config", nil, &raw); err != nil {
		return NamespaceConfig{}, err
	}
	var cfg NamespaceConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return NamespaceConfig{}, &Error{Op: "config", Namespace: ns, Status: http.StatusOK, Message: "malformed configuration: " + err.Error()}
	}
	cfg.Raw = raw
	return cfg, nil
}

// List returns the names of all namespaces. It is a dwk libsql extension;
// sqld answers it with an error wrapping ErrNotFound or ErrUnsupported.
func (c *Client) List(ctx context.Context) ([]string, error) {
	var out struct {
		Namespaces []string `json:"namespaces"`
	}
	if err := c.call(ctx, "list", "", http.MethodGet, "/v1/namespaces", nil, &out); err != nil {
		return nil, err
	}
	return out.Namespaces, nil
}

func nsPath(ns string) string { return "/v1/namespaces/" + url.PathEscape(ns) }
