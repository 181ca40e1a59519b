package e2e

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/s3server"
)

// stores are the central stores of one test: a `dwk libsql` server and a
// versitygw gateway (or the external services test/libsqlserver and
// test/s3server are pointed at).
type stores struct {
	libsql *libsqlserver.Server
	s3     *s3server.Server
	admin  *libsqladmin.Client
}

func startStores(t *testing.T) *stores {
	t.Helper()
	st := &stores{libsql: libsqlserver.Start(t), s3: s3server.Start(t)}
	if st.libsql.AdminURL == "" {
		t.Fatal("the libSQL server has no admin API; the examples create databases through it")
	}
	admin, err := libsqladmin.New(libsqladmin.Config{URL: st.libsql.AdminURL, AdminKey: st.libsql.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	st.admin = admin
	return st
}

// vars are the examples' connection variables for these stores.
func (st *stores) vars() map[string]string {
	v := map[string]string{
		"libsql_url":       st.libsql.URL,
		"libsql_admin_url": st.libsql.AdminURL,
		"s3_endpoint":      st.s3.Endpoint,
		"s3_region":        st.s3.Region,
		"s3_path_style":    strconv.FormatBool(st.s3.PathStyle),
		"s3_access_key":    st.s3.AccessKey,
		"s3_secret_key":    st.s3.SecretKey,
	}
	if st.libsql.AuthToken != "" {
		v["libsql_auth_token"] = st.libsql.AuthToken
	}
	if st.libsql.AdminKey != "" {
		v["libsql_admin_token"] = st.libsql.AdminKey
	}
	return v
}

func storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// namespacesWith lists the libSQL databases whose names contain s.
func (st *stores) namespacesWith(t *testing.T, s string) []string {
	t.Helper()
	ctx, cancel := storeCtx()
	defer cancel()
	all, err := st.admin.List(ctx)
	if err != nil {
		t.Fatalf("list libSQL namespaces: %v", err)
	}
	var out []string
	for _, ns := range all {
		if strings.Contains(ns, s) {
			out = append(out, ns)
		}
	}
	slices.Sort(out)
	return out
}

// bucketExists reports whether bucket exists on the S3 service.
func (st *stores) bucketExists(t *testing.T, bucket string) bool {
	t.Helper()
	ctx, cancel := storeCtx()
	defer cancel()
	_, err := st.s3.Client().HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	var nf *s3types.NotFound
	var nb *s3types.NoSuchBucket
	switch {
	case err == nil:
		return true
	case errors.As(err, &nf) || errors.As(err, &nb):
		return false
	}
	t.Fatalf("head bucket %s: %v", bucket, err)
	return false
}

// assertGone fails the test when any Terraform-managed database or the
// bucket of fleet survived destroy. Object databases, which replicas
// create on first use, are reported but are not Terraform's.
func (st *stores) assertGone(t *testing.T, fleet string, dbs databases, bucket string) {
	t.Helper()
	left := st.namespacesWith(t, fleet)
	managed := append([]string{dbs.Coord, dbs.Queues}, mapValues(dbs.D1)...)
	for _, ns := range left {
		if slices.Contains(managed, ns) {
			t.Errorf("database %s survived terraform destroy", ns)
		}
	}
	if len(left) > 0 {
		t.Logf("libSQL databases of fleet %s after destroy (object databases are created by the replicas, not by Terraform): %v", fleet, left)
	}
	if st.bucketExists(t, bucket) {
		t.Errorf("bucket %s survived terraform destroy", bucket)
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
