// Package storetest gives the fleet packages' tests real central stores:
// a coordination store on a fresh namespace of a real libSQL server
// (test/libsqlserver), and an S3 client for a real S3 service
// (test/s3server).
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/s3server"
)

// LibSQL is a libSQL server with an admin client.
type LibSQL struct {
	*libsqlserver.Server
	Admin *libsqladmin.Client
}

// StartLibSQL starts a libSQL server for t (see libsqlserver.Start).
// adminKey, when not empty, is required by its admin API.
func StartLibSQL(t testing.TB, adminKey string) *LibSQL {
	t.Helper()
	var args []string
	if adminKey != "" {
		args = append(args, "--admin-auth-key", adminKey)
	}
	srv := libsqlserver.Start(t, args...)
	if adminKey != "" && !srv.External {
		srv.AdminKey = adminKey
	}
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	return &LibSQL{Server: srv, Admin: admin}
}

// Client returns a Hrana client for namespace ns (which need not exist).
func (l *LibSQL) Client(t testing.TB, ns string) *hranaclient.Client {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: l.URL, AuthToken: l.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// CreateNamespace creates ns and deletes it when t ends.
func (l *LibSQL) CreateNamespace(t testing.TB, ns string) {
	t.Helper()
	if err := l.Admin.Create(Context(t), ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := l.Admin.Delete(ctx, ns); err != nil {
			t.Errorf("delete namespace %s: %v", ns, err)
		}
	})
}

// Coord opens a coordination store on namespace ns, creating the
// namespace first, and closes it when t ends.
func (l *LibSQL) Coord(t testing.TB, ns string) *coord.Store {
	t.Helper()
	l.CreateNamespace(t, ns)
	s, err := coord.Open(Context(t), l.Client(t, ns), coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return s
}

// S3 is an S3 service with a client for it.
type S3 struct {
	*s3server.Server
	Client *s3.Client
}

// StartS3 starts an S3 service for t (see s3server.Start).
func StartS3(t testing.TB) *S3 {
	t.Helper()
	srv := s3server.Start(t)
	return &S3{Server: srv, Client: S3Client(t, srv, srv.AccessKey, srv.SecretKey)}
}

// S3Client returns a client of the service with the given credentials,
// built as the appliance builds it (r2central.NewClient).
func S3Client(t testing.TB, srv *s3server.Server, accessKey, secretKey string) *s3.Client {
	t.Helper()
	c, err := r2central.NewClient(Context(t), r2central.Config{
		Endpoint: srv.Endpoint, Region: srv.Region, Bucket: "unused", PathStyle: srv.PathStyle,
		AccessKey: accessKey, SecretKey: secretKey, MaxAttempts: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Context returns a context that ends after a minute or with t.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
