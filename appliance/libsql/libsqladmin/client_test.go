package libsqladmin

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/dwk/fleet/test/libsqlserver"
)

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newClient(t *testing.T, url, key string) *Client {
	t.Helper()
	c, err := New(Config{URL: url, AdminKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLifecycle(t *testing.T) {
	srv := libsqlserver.Start(t, "--admin-auth-key", "s3cret")
	if srv.External {
		t.Skip("needs its own server with a known admin key")
	}
	ctx := ctxFor(t)
	c := newClient(t, srv.AdminURL, "s3cret")
	ns := libsqlserver.Namespace("adm")

	if ok, err := c.Exists(ctx, ns); err != nil || ok {
		t.Fatalf("Exists before Create = %v, %v; want false", ok, err)
	}
	if _, err := c.Config(ctx, ns); !errors.Is(err, ErrNotFound) {
		t.Errorf("Config of missing namespace: err = %v, want ErrNotFound", err)
	}
	if err := c.Create(ctx, ns); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if err := c.Create(ctx, ns); err != nil {
		t.Fatalf("second Create (idempotent): %v", err)
	}
	if ok, err := c.Exists(ctx, ns); err != nil || !ok {
		t.Fatalf("Exists after Create = %v, %v; want true", ok, err)
	}
	cfg, err := c.Config(ctx, ns)
	if err != nil || cfg.BlockWrites || len(cfg.Raw) == 0 {
		t.Errorf("Config = %+v, %v", cfg, err)
	}
	names, err := c.List(ctx)
	if err != nil || !slices.Contains(names, ns) {
		t.Errorf("List = %v, %v; want it to hold %s", names, err, ns)
	}
	if err := c.Delete(ctx, ns); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := c.Delete(ctx, ns); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete: err = %v, want ErrNotFound", err)
	}
	var e *Error
	if err := c.Delete(ctx, ns); !errors.As(err, &e) || e.Op != "delete" || e.Namespace != ns || e.Status == 0 {
		t.Errorf("Delete error = %#v; want *Error naming op, namespace and status", err)
	}
	if ok, err := c.Exists(ctx, ns); err != nil || ok {
		t.Errorf("Exists after Delete = %v, %v; want false", ok, err)
	}

	if err := newClient(t, srv.AdminURL, "wrong").Create(ctx, ns); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("Create with a wrong key: err = %v, want ErrUnauthorized", err)
	}
	if err := newClient(t, srv.AdminURL, "").Create(ctx, ns); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("Create without a key: err = %v, want ErrUnauthorized", err)
	}
	if err := c.Create(ctx, "Not Valid!"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Create of an invalid name: err = %v, want a refusal", err)
	}
}

// TestSQLDStyleAnswers checks the answers sqld gives in its own words: 400
// for an existing namespace and for a missing one.
func TestSQLDStyleAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Basic k" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/namespaces/there/create":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"Namespace `+"`there`"+` already exists"}`)
		case r.Method == "DELETE" && r.URL.Path == "/v1/namespaces/gone":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"Namespace `+"`gone`"+` doesn't exist"}`)
		case r.Method == "GET" && r.URL.Path == "/v1/namespaces/there/config":
			io.WriteString(w, `{"block_reads":false,"block_writes":true,"block_reason":"full"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := ctxFor(t)
	c := newClient(t, srv.URL, "k")
	if err := c.Create(ctx, "there"); err != nil {
		t.Errorf("Create of an existing namespace = %v, want nil", err)
	}
	if err := c.Delete(ctx, "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete of a missing namespace: err = %v, want ErrNotFound", err)
	}
	cfg, err := c.Config(ctx, "there")
	if err != nil || !cfg.BlockWrites || cfg.BlockReason == nil || *cfg.BlockReason != "full" {
		t.Errorf("Config = %+v, %v", cfg, err)
	}
}

func TestUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	if err := newClient(t, url, "").Create(ctxFor(t), "x"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable", err)
	}
}
