// Package fleettest runs a real central-mode fleet for tests: a `dwk
// libsql`, a versitygw S3 server, `dwk provision`, and N `dwk serve`
// replicas on loopback, each with its own ports, all started by the test
// and killed when it ends.
package fleettest

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/s3server"
)

// Options shape a fleet.
type Options struct {
	// Replicas is the number of dwk serve processes. Default: 3.
	Replicas int
	// LeaseTTL is the object lease TTL. Default: config.DefaultLeaseTTL.
	LeaseTTL time.Duration
	// DrainTimeout bounds each drain. Default: 10s.
	DrainTimeout time.Duration
	// Edit changes each replica's config before it is written. The
	// replica's Internal address is read back from listen.advertise.
	Edit func(i int, c *config.Config)
	// Prefix, when set, returns the command replica i's `dwk serve` runs
	// under: the dwk command line is appended to it (for example
	// {"ip", "netns", "exec", "ns0"}).
	Prefix func(i int) []string
	// PlaintextInternal turns mutual TLS on the internal listeners off
	// (requests are still signed). Default: TLS, with a fleet CA and
	// member certificates made by `dwk certs`.
	PlaintextInternal bool
}

// tester is the member id of the certificate the test itself presents
// on internal listeners (InternalClient).
const tester = "tester"

// Fleet is a running fleet.
type Fleet struct {
	t        testing.TB
	Name     string
	Secret   string
	LibSQL   *libsqlserver.Server
	S3       *s3server.Server
	Bucket   string
	Replicas []*Replica
	dir      string
	opts     Options
}

// Replica is one dwk serve.
type Replica struct {
	Index    int
	Member   string
	Config   string // path of its dwk.json
	Public   string // http://host:port
	Internal string // host:port
	Admin    string // http://host:port
	Proc     *procs.Proc
	f        *Fleet
}

var (
	readyRE = regexp.MustCompile(`ready on (http://\S+)`)
	adminRE = regexp.MustCompile(`admin on (https?://\S+)`)
)

// AdminToken is every test replica's admin token.
const AdminToken = "test-admin-token"

// Start provisions the stores and starts the replicas, waiting until each
// is ready.
func Start(t testing.TB, o Options) *Fleet {
	t.Helper()
	f := New(t, o)
	f.Provision()
	for _, r := range f.Replicas {
		r.Start()
	}
	return f
}

// New starts the stores and writes every replica's config, but neither
// provisions the stores nor starts a replica.
func New(t testing.TB, o Options) *Fleet {
	t.Helper()
	if o.Replicas == 0 {
		o.Replicas = 3
	}
	if o.LeaseTTL == 0 {
		o.LeaseTTL = config.DefaultLeaseTTL
	}
	if o.DrainTimeout == 0 {
		o.DrainTimeout = 10 * time.Second
	}
	f := &Fleet{t: t, Name: "t" + randHex(5), Secret: randHex(32), dir: t.TempDir(), opts: o}
	f.LibSQL = libsqlserver.Start(t)
	f.S3 = s3server.Start(t)
	f.Bucket = f.S3.NewBucket(t)
	if !o.PlaintextInternal {
		args := []string{"certs", "--fleet", f.Name, "--dir", f.pki(), "--member", tester}
		for i := range o.Replicas {
			args = append(args, "--member", memberID(i))
		}
		if code, out := f.Run(args...); code != 0 {
			t.Fatalf("dwk certs: exit %d\n%s", code, out)
		}
	}
	for i := range o.Replicas {
		f.Replicas = append(f.Replicas, f.newReplica(i))
	}
	return f
}

// Provision runs `dwk provision` with the first replica's config.
func (f *Fleet) Provision() {
	f.t.Helper()
	prov := procs.Start(f.t, "dwk provision", procs.Binary(f.t), f.env(), "provision", "--config", f.Replicas[0].Config)
	if code, err := prov.Wait(60 * time.Second); err != nil || code != 0 {
		f.t.Fatalf("dwk provision: exit %d, %v\n%s", code, err, prov.Output())
	}
}

// Run runs dwk with args and the fleet's environment, and returns its exit
// code and output.
func (f *Fleet) Run(args ...string) (int, string) {
	f.t.Helper()
	p := procs.Start(f.t, "dwk "+args[0], procs.Binary(f.t), f.env(), args...)
	code, err := p.Wait(90 * time.Second)
	if err != nil {
		f.t.Fatalf("dwk %v: %v\n%s", args, err, p.Output())
	}
	return code, p.Output()
}

func (f *Fleet) env() []string {
	return []string{"DWK_FLEET_SECRET=" + f.Secret, "DWK_S3_SECRET=" + f.S3.SecretKey, "DWK_ADMIN_TOKEN=" + AdminToken}
}

// pki is the directory of the fleet CA and the member certificates.
func (f *Fleet) pki() string { return filepath.Join(f.dir, "pki") }

// memberID is the member id of replica i.
func memberID(i int) string { return fmt.Sprintf("r%d", i) }

// tlsFiles are member's files in the fleet's PKI, nil without TLS.
func (f *Fleet) tlsFiles(member string) *internaltls.Files {
	if f.opts.PlaintextInternal {
		return nil
	}
	return &internaltls.Files{CA: filepath.Join(f.pki(), "ca.pem"), Cert: filepath.Join(f.pki(), member+".pem"), Key: filepath.Join(f.pki(), member+"-key.pem")}
}

// InternalClient sends requests to the replicas' internal listeners as a
// member of the fleet would: signed, and over mutual TLS (as member
// "tester") unless Options.PlaintextInternal. URLs may say http://.
func (f *Fleet) InternalClient() *http.Client {
	f.t.Helper()
	link, err := peerlink.New(peerlink.Config{Secret: []byte(f.Secret), Fleet: f.Name, Member: tester, TLS: f.tlsFiles(tester)})
	if err != nil {
		f.t.Fatal(err)
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: link.Transport(nil, func(req *http.Request) (string, bool) {
		for _, r := range f.Replicas {
			if r.Internal == req.URL.Host {
				return r.Member, true
			}
		}
		return "", false
	})}
}

func (f *Fleet) newReplica(i int) *Replica {
	r := &Replica{Index: i, Member: memberID(i), Internal: freeport.Must(f.t, "127.0.0.1"), f: f}
	c := config.Default()
	c.Fleet = config.Fleet{Name: f.Name, Member: r.Member, Secret: &config.Secret{Env: "DWK_FLEET_SECRET"}}
	c.Listen = config.Listen{Public: "127.0.0.1:0", Internal: r.Internal, Admin: "127.0.0.1:0"}
	if t := f.tlsFiles(r.Member); t != nil {
		c.Listen.InternalTLS = &config.InternalTLS{CAFile: t.CA, CertFile: t.Cert, KeyFile: t.Key}
	}
	c.Storage = config.Storage{
		Mode:   config.ModeCentral,
		LibSQL: &config.LibSQL{URL: f.LibSQL.URL, AdminURL: f.LibSQL.AdminURL},
		S3: &config.S3{
			Endpoint: f.S3.Endpoint, Region: f.S3.Region, Bucket: f.Bucket, PathStyle: true,
			AccessKey: config.Literal(f.S3.AccessKey), SecretKey: &config.Secret{Env: "DWK_S3_SECRET"},
		},
	}
	if f.LibSQL.AuthToken != "" {
		c.Storage.LibSQL.AuthToken = config.Literal(f.LibSQL.AuthToken)
	}
	if f.LibSQL.AdminKey != "" {
		c.Storage.LibSQL.AdminToken = config.Literal(f.LibSQL.AdminKey)
	}
	c.Lease = config.Lease{TTL: config.Duration(f.opts.LeaseTTL)}
	c.Drain = config.Drain{Timeout: config.Duration(f.opts.DrainTimeout)}
	c.Admin = config.Admin{Token: &config.Secret{Env: "DWK_ADMIN_TOKEN"}}
	c.Storage.DataDir = ""
	c.ApplyDefaults()
	if f.opts.Edit != nil {
		f.opts.Edit(i, c)
		r.Internal = c.Listen.Advertise
	}
	b, err := config.Encode(c)
	if err != nil {
		f.t.Fatal(err)
	}
	r.Config = filepath.Join(f.dir, r.Member+".json")
	if err := os.WriteFile(r.Config, b, 0o600); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// Start (re)starts the replica's process and waits until it is ready.
func (r *Replica) Start() {
	r.f.t.Helper()
	bin, args := procs.Binary(r.f.t), []string{"serve", "--config", r.Config}
	if r.f.opts.Prefix != nil {
		if pre := r.f.opts.Prefix(r.Index); len(pre) > 0 {
			cmd := append(append(append([]string(nil), pre...), bin), args...)
			bin, args = cmd[0], cmd[1:]
		}
	}
	r.Proc = procs.Start(r.f.t, "dwk serve "+r.Member, bin, r.f.env(), args...)
	r.Admin = r.Proc.WaitFor(adminRE, 60*time.Second)[1]
	r.Public = r.Proc.WaitFor(readyRE, 60*time.Second)[1]
}

// Fleet is the fleet r belongs to.
func (r *Replica) Fleet() *Fleet { return r.f }

// Kill sends SIGKILL.
func (r *Replica) Kill() { r.Proc.Kill() }

// Stop sends SIGTERM (a drain) and waits for a clean exit.
func (r *Replica) Stop() {
	r.f.t.Helper()
	r.Proc.Signal(syscall.SIGTERM)
	code, err := r.Proc.Wait(r.f.opts.DrainTimeout + 20*time.Second)
	if err != nil || code != 0 {
		r.f.t.Fatalf("%s: exit %d, %v after SIGTERM\n%s", r.Member, code, err, r.Proc.Output())
	}
}

// Pause stops the replica (SIGSTOP) and returns once it is stopped;
// Resume lets it go on (SIGCONT).
func (r *Replica) Pause()  { r.Proc.Freeze() }
func (r *Replica) Resume() { r.Proc.Signal(syscall.SIGCONT) }

// Metric returns the value of a metric line (name with labels, as printed)
// from the replica's /metrics, and whether it was found.
func (r *Replica) Metric(name string) (float64, bool) {
	resp, err := http.Get(r.Admin + "/metrics")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	for _, line := range strings.Split(sb.String(), "\n") {
		if strings.HasPrefix(line, name+" ") {
			var v float64
			fmt.Sscan(strings.TrimPrefix(line, name+" "), &v)
			return v, true
		}
	}
	return 0, false
}

// Status is the replica's /admin/status.
func (r *Replica) Status() (map[string]any, error) {
	req, _ := http.NewRequest("GET", r.Admin+"/admin/status", nil)
	req.Header.Set("Authorization", "Bearer "+AdminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

// Headers of a forwarded object request; see
// appliance/bindings/objects/objcentral/internal.go.
const (
	headerForwardHops = "Dwk-Forward-Hops"
	headerObjectName  = "Dwk-Object-Name"
)

// ObjectRequest returns a request that replica r serves itself for the
// object name of class, with path and query as the object sees them (for
// example "/counter/x/increment"). It goes to r's internal listener the
// way another replica forwards a request (send it with InternalClient),
// at the last hop, so r takes the object if it is free and answers 503
// (without forwarding) if another replica holds it.
func (r *Replica) ObjectRequest(method, class, name, path string, body io.Reader) (*http.Request, error) {
	id := objectid.FromName([]byte(r.f.Secret), class, name)
	u := "http://" + r.Internal + objcentral.InternalPrefix + url.PathEscape(class) + "/" + id.String() + path
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set(headerForwardHops, strconv.Itoa(objcentral.MaxHops))
	req.Header.Set(headerObjectName, base64.RawURLEncoding.EncodeToString([]byte(name)))
	return req, nil
}

// ReleaseObject asks replica r to hand the object name of class back
// (POST /admin/objects/release) and reports whether r was running it.
func (r *Replica) ReleaseObject(class, name string) (bool, error) {
	q := url.Values{"class": {class}, "name": {name}}
	req, err := http.NewRequest("POST", r.Admin+"/admin/objects/release?"+q.Encode(), nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+AdminToken)
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return false, err
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("%s: release %s %q: %s: %s", r.Member, class, name, resp.Status, b)
	}
	var out struct {
		Released *bool `json:"released"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Released == nil {
		return false, fmt.Errorf("%s: release %s %q: answer %q", r.Member, class, name, b)
	}
	return *out.Released, nil
}
