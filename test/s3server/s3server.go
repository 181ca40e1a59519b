// Package s3server gives tests a real S3 service: a versitygw gateway with
// its posix backend, started per test on a free 127.0.0.1 port in
// t.TempDir(), with random root credentials, and killed when the test ends.
//
// Point the tests at an existing S3-compatible service instead by setting
//
//	DWK_TEST_S3_ENDPOINT    e.g. https://s3.eu-central-1.amazonaws.com
//	DWK_TEST_S3_ACCESS_KEY
//	DWK_TEST_S3_SECRET_KEY
//	DWK_TEST_S3_REGION      optional, default us-east-1
//	DWK_TEST_S3_BUCKET      optional: use this bucket instead of creating ones
//	DWK_TEST_S3_PATH_STYLE  optional, "false" for virtual-hosted addressing
//
// versitygw is found in PATH, $GOBIN or $(go env GOPATH)/bin; install it
// with
//
//	go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// (InstallCommand, or make tools). Without it the test skips, or fails
// under CI (see test/needtool). The gateway stores object metadata in extended
// attributes when the temp directory's file system supports user xattrs and
// in a sidecar directory when it does not.
package s3server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/test/needtool"
)

// InstallCommand installs the versitygw version the tests are written
// against.
const InstallCommand = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Environment variables that select an external S3 service.
const (
	EnvEndpoint  = "DWK_TEST_S3_ENDPOINT"
	EnvAccessKey = "DWK_TEST_S3_ACCESS_KEY"
	EnvSecretKey = "DWK_TEST_S3_SECRET_KEY"
	EnvRegion    = "DWK_TEST_S3_REGION"
	EnvBucket    = "DWK_TEST_S3_BUCKET"
	EnvPathStyle = "DWK_TEST_S3_PATH_STYLE"
)

// DefaultRegion is the region of the local gateway, and of an external
// service when DWK_TEST_S3_REGION is not set.
const DefaultRegion = "us-east-1"

// Server is an S3 service for one test (and its subtests). Its fields are
// set by Start and do not change, not even across Restart.
type Server struct {
	// Endpoint is the service's base URL, e.g. http://127.0.0.1:41234.
	Endpoint string
	// AccessKey and SecretKey are the credentials of a user that may create
	// buckets.
	AccessKey, SecretKey string
	// Region is the region to sign requests for.
	Region string
	// PathStyle is whether buckets are addressed as a path segment
	// (always true for the local gateway).
	PathStyle bool

	t        testing.TB
	client   *s3.Client
	fixed    string // external bucket from DWK_TEST_S3_BUCKET, or ""
	external bool

	// The local gateway; unused when external.
	gw *gateway

	sharedOnce sync.Once
	shared     string // bucket behind NewPrefix, created on first use
}

// Start returns a running S3 service for t: the external one named by
// DWK_TEST_S3_ENDPOINT, or else a new versitygw gateway that is killed when
// t ends. It fails t when the gateway does not come up; a missing
// versitygw skips t, or fails it under CI.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartOn(t, "127.0.0.1")
}

// StartOn is Start with the gateway listening on host, an address other
// machines reach (a test machine's bridge, say), instead of 127.0.0.1.
func StartOn(t testing.TB, host string) *Server {
	t.Helper()
	s := &Server{t: t, Region: DefaultRegion, PathStyle: true}
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		s.external = true
		s.Endpoint = strings.TrimRight(ep, "/")
		s.AccessKey = os.Getenv(EnvAccessKey)
		s.SecretKey = os.Getenv(EnvSecretKey)
		if r := os.Getenv(EnvRegion); r != "" {
			s.Region = r
		}
		s.PathStyle = os.Getenv(EnvPathStyle) != "false"
		s.fixed = os.Getenv(EnvBucket)
		if s.AccessKey == "" || s.SecretKey == "" {
			t.Fatalf("s3server: %s is set but %s or %s is empty", EnvEndpoint, EnvAccessKey, EnvSecretKey)
		}
	} else {
		s.AccessKey = randomHex(t, 10)
		s.SecretKey = randomHex(t, 20)
		bin, err := findBinary()
		if err != nil {
			needtool.Missing(t, "versitygw", InstallCommand, err)
			return nil
		}
		gw, err := newGateway(t, bin, host, s.AccessKey, s.SecretKey, s.Region)
		if err != nil {
			t.Fatalf("s3server: %v", err)
		}
		s.gw = gw
		s.Endpoint = gw.endpoint()
	}
	s.client = s.newClient()
	return s
}

// External reports whether the service is an external one from the
// environment. Stop and Restart work only on the local gateway, so chaos
// tests skip themselves when it is external.
func (s *Server) External() bool { return s.external }

// Client returns an S3 client for the service with the root credentials,
// for tests that look behind a backend's back.
func (s *Server) Client() *s3.Client { return s.client }

// NewBucket returns the name of a new, empty bucket that t may use. On an
// external service it removes the bucket and everything in it when t ends
// (the local gateway's data goes with its temp dir). With
// DWK_TEST_S3_BUCKET set it returns that bucket instead, which other tests
// share: tests that need isolation there should use NewPrefix.
func (s *Server) NewBucket(t testing.TB) string {
	t.Helper()
	if s.fixed != "" {
		return s.fixed
	}
	name := "dwk-test-" + randomHex(t, 8)
	if err := s.createBucket(name); err != nil {
		t.Fatalf("s3server: %v", err)
	}
	if s.external { // the local gateway's data goes with its temp dir
		t.Cleanup(func() {
			if err := s.removeBucket(name); err != nil {
				t.Errorf("s3server: %v", err)
			}
		})
	}
	return name
}

// NewPrefix returns a bucket and a key prefix ending in "/" that no other
// test uses; on an external service everything under the prefix is deleted
// when t ends. The bucket
// is shared by every NewPrefix of this Server (it is DWK_TEST_S3_BUCKET when
// set).
func (s *Server) NewPrefix(t testing.TB) (bucket, prefix string) {
	t.Helper()
	s.sharedOnce.Do(func() {
		if s.fixed != "" {
			s.shared = s.fixed
			return
		}
		s.shared = s.NewBucket(s.t)
	})
	if s.shared == "" {
		t.Fatalf("s3server: the shared bucket could not be created")
	}
	prefix = "dwk-test/" + randomHex(t, 8) + "/"
	if s.external {
		t.Cleanup(func() {
			if err := s.emptyPrefix(s.shared, prefix); err != nil {
				t.Errorf("s3server: %v", err)
			}
		})
	}
	return s.shared, prefix
}

// Stop kills the local gateway, so that the service refuses connections
// until Restart. It returns an error for an external service.
func (s *Server) Stop() error {
	if s.external {
		return fmt.Errorf("s3server: cannot stop the external S3 service at %s", s.Endpoint)
	}
	s.gw.stop()
	return nil
}

// Restart starts the local gateway again on the same address and data, and
// waits until it answers. It may be called while the gateway is running,
// which restarts it.
func (s *Server) Restart() error {
	if s.external {
		return fmt.Errorf("s3server: cannot restart the external S3 service at %s", s.Endpoint)
	}
	s.gw.stop()
	return s.gw.start()
}

// context returns a context for one administrative call.
func (s *Server) context() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// randomHex returns n random bytes in hex.
func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("s3server: random: %v", err)
	}
	return hex.EncodeToString(b)
}
