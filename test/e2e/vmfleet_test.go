package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/test/machines"
	"github.com/dwk/fleet/test/pebbleserver"
	"github.com/dwk/fleet/test/s3server"
)

// TestVMFleetExample applies examples/vm-fleet to three booted Debian
// machines with systemd (test/machines), with a versitygw S3 endpoint and
// Pebble as the ACME CA on their bridge: the libSQL server with its
// backup on the first, a replica on each of the others, every one a
// systemd unit, the replicas serving HTTPS for httpsDomain on port 443.
// The replicas share one certificate, redirect plain HTTP on port 80, and
// serve the counter over HTTPS through each; the libSQL server's backup
// reaches the bucket, a second plan is empty, and destroy leaves no unit,
// file or process.
func TestVMFleetExample(t *testing.T) {
	skipShort(t)
	set := machines.Boot(t, 3)
	hosts := set.Machines
	bin := clis()[0].require(t)
	s3s := s3server.StartOn(t, set.HostAddress)
	acme := pebbleserver.StartOn(t, set.HostAddress)
	start := time.Now()
	work := workCopy(t, "examples/vm-fleet")
	key := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, []byte(set.PrivateKey), 0o600); err != nil {
		t.Fatal(err)
	}
	libsqlHost := map[string]any{
		"address": hosts[0].Address, "port": hosts[0].Port, "user": hosts[0].User, "host_key": hosts[0].HostKey,
		"listen": hosts[0].Address,
	}
	var replicas []map[string]any
	for _, h := range hosts[1:] {
		replicas = append(replicas, map[string]any{
			"address": h.Address, "port": h.Port, "user": h.User, "host_key": h.HostKey, "listen": h.Address,
		})
	}
	name := "vm-" + randHex(3)
	vars := map[string]string{
		"name": name, "fleet_secret": randHex(32), "artifact": dwkBin(t), "ssh_private_key_file": key,
		"libsql_host": tfValue(t, libsqlHost), "replica_hosts": tfValue(t, replicas),
		"s3_endpoint": s3s.Endpoint, "s3_region": s3s.Region, "s3_access_key": s3s.AccessKey, "s3_secret_key": s3s.SecretKey,
		"s3_path_style": strconv.FormatBool(s3s.PathStyle),
		"bucket":        name + "-blobs", "backup_bucket": name + "-backup", "force_destroy": "true",
		"public_port": "443",
		"tls": tfValue(t, map[string]any{
			"domains": []string{httpsDomain}, "email": "ops@" + httpsDomain, "acme_ca": acme.DirectoryURL, "acme_ca_root": acme.RootsFile,
		}),
	}
	w := newTF(t, bin, filepath.Join(work, "examples", "vm-fleet"), vars)
	td := w.teardownAt(t.TempDir())
	w.must("init", "-input=false")
	w.must("apply", "-auto-approve", "-input=false")
	t.Logf("fleet up on systemd machines after %s", time.Since(start).Round(time.Second))
	onMachines(t, set, `systemctl is-active 'dwk-*.service'`)

	var urls []string
	w.output("urls", &urls)
	if len(urls) != 2 {
		t.Fatalf("urls = %v, want the two replicas", urls)
	}
	roots := acme.IssuingRoots(t)
	clients := make([]*http.Client, len(urls))
	for i, u := range urls {
		addr, ok := strings.CutPrefix(u, "https://")
		if !ok {
			t.Fatalf("url %q: want https with tls", u)
		}
		clients[i] = httpsClient(addr, roots)
		waitHTTPS(t, clients[i], addr)
		checkRedirect(t, addr)
	}
	if n := acme.Issued(); n != 1 {
		t.Errorf("Pebble issued %d certificates for %d replicas sharing theirs, want 1", n, len(urls))
	}
	driveCounterWith(t, clients, "https://"+httpsDomain, "vm-"+randHex(2), 4)
	checkBackup(t, s3s, name+"-backup", "libsql/"+name+"/")
	w.noChanges()

	w.must("destroy", "-auto-approve", "-input=false")
	td.done = true
	onMachines(t, set, `! ls /etc/systemd/system/dwk-*.service 2>/dev/null && ! ls /opt/dwk/* 2>/dev/null && ! pgrep -af '[d]wk-[0-9a-f]'`)
	t.Logf("applied, served and destroyed in %s", time.Since(start).Round(time.Second))
}

// onMachines runs cmd on every machine of set and fails t unless it
// succeeds on each.
func onMachines(t *testing.T, set *machines.Set, cmd string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := set.Run(ctx, cmd); err != nil {
		t.Fatal(err)
	}
}

// tfValue renders v as a Terraform variable value (JSON is HCL).
func tfValue(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkBackup waits until the libSQL server's backup has shipped
// something under prefix: the counter's writes went through it.
func checkBackup(t *testing.T, s3s *s3server.Server, bucket, prefix string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := s3s.Client().ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket), Prefix: aws.String(prefix)})
		cancel()
		if err == nil && len(out.Contents) > 0 {
			t.Logf("backup: %d objects under s3://%s/%s", len(out.Contents), bucket, prefix)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing backed up under s3://%s/%s after 30s (%v)", bucket, prefix, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
