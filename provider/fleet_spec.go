package provider

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path"
	"regexp"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	tfpath "github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/process/netaddr"
	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
)

// localAddress is the host address that means the machine Terraform runs
// on. The defaults of the other attributes are in internal/defaults.
const localAddress = "local"

// fleetSpec is a dwk_fleet whose attributes are all known, with defaults
// applied: what the deployer works from.
type fleetSpec struct {
	Name         string
	Secret       string
	Mode         string
	LibSQL       *config.LibSQL
	S3           *config.S3
	Workers      []config.Worker
	Affinity     []config.AffinityRule
	DrainTimeout time.Duration
	LeaseTTL     time.Duration
	LogLevel     string
	// AdminToken is "" until an apply knows it (given, generated, or read
	// back from the hosts).
	AdminToken        string
	AdminTokenVersion string
	// Salt keys the recorded config hashes; "" before the first apply.
	Salt         string
	Artifact     deploy.Artifact
	Service      string
	MaxParallel  int
	MinHealthy   time.Duration
	ReadyTimeout time.Duration
	AutoRevert   bool
	// RemoveUnreachable goes on without hosts that cannot be reached.
	RemoveUnreachable bool
	// CA issues the replicas' internal TLS certificates; nil in local mode,
	// with insecure_plaintext_internal, or while the secret is unset (as
	// in a spec resolved from the state).
	CA *internaltls.SecretCA
	// CACert is the CA certificate admin calls trust: CA's, or for a spec
	// resolved from the state, the recorded internal_ca_certificate.
	CACert []byte
	// LibSQLCA is the content of libsql.ca_file, copied to the hosts;
	// LibSQLCAFile its path here.
	LibSQLCA     []byte
	LibSQLCAFile string
	// TLS is the front door's automatic HTTPS; its ACMECARoot is rendered
	// per host. ACMERoot is the content of tls.acme_ca_root, copied to the
	// hosts.
	TLS      *config.TLS
	ACMERoot []byte
	// Projects are the Workers projects' artifacts the workers name; nil
	// in a spec resolved from the state, which renders their paths from
	// project_hash but deploys nothing.
	Projects []deploy.Project
	Hosts    []*hostSpec
}

// hostSpec is one host with its defaults resolved.
type hostSpec struct {
	Index      int
	Address    string
	SSH        sshtarget.Config
	InstallDir string
	Member     string
	Public     string
	Internal   string
	Advertise  string
	Admin      string
	Unit       string
	// HTTPS: the front door serves the fleet's tls domains.
	HTTPS bool
}

// Local reports whether the host is the machine Terraform runs on.
func (h *hostSpec) Local() bool { return h.Address == localAddress }

// Key identifies the host across plans: the same address and install
// directory is the same replica, whatever else changed.
func (h *hostSpec) Key() string { return h.Address + "|" + h.InstallDir }

// Label names the host in messages.
func (h *hostSpec) Label() string {
	if h.Local() {
		return "local:" + h.InstallDir
	}
	return h.SSH.Name()
}

// URL is the replica's public URL as clients reach it: https with tls
// (a client names one of the domains as the server name).
func (h *hostSpec) URL() string {
	host, port, _ := net.SplitHostPort(h.Public)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = h.Address
		if h.Local() {
			host = "127.0.0.1"
		}
	}
	scheme := "http://"
	if h.HTTPS {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, port)
}

// resolve turns the model into a spec. known is false when a part the
// spec needs is still unknown (the plan then leaves computed values
// unknown). The admin token may be unknown; spec.AdminToken is then "".
func resolve(ctx context.Context, m *fleetModel, sec *fleetSecrets, data *providerData) (spec *fleetSpec, known bool, diags diag.Diagnostics) {
	if !fullyKnown(ctx, m.Name, m.AdminTokenVer, m.StorageMode, m.LibSQL, m.S3, m.TLS, m.Workers, m.AffinityRules,
		m.PublicPort, m.InternalPort, m.AdminPort, m.DrainTimeout, m.LeaseTTL, m.LogLevel,
		m.ArtifactSHA256, m.Artifact, m.Hosts, m.Service, m.MaxParallel, m.MinHealthyTime, m.AutoRevert, m.ReadyTimeout) {
		return nil, false, nil
	}
	if sec == nil {
		sec = &fleetSecrets{}
	}
	s := &fleetSpec{
		Name: m.Name.ValueString(), Secret: sec.Secret, AdminToken: sec.AdminToken, AdminTokenVersion: m.AdminTokenVer.ValueString(),
		Mode:     orDefault(m.StorageMode, defaults.StorageMode),
		LogLevel: orDefault(m.LogLevel, defaults.LogLevel), Service: orDefault(m.Service, defaults.Service),
		MaxParallel: int(intOr(m.MaxParallel, defaults.MaxParallel)), AutoRevert: boolValue(m.AutoRevert),
		RemoveUnreachable: boolValue(m.RemoveUnreach),
		Artifact:          deploy.Artifact{Path: m.Artifact.ValueString(), SHA256: m.ArtifactSHA256.ValueString()},
	}
	for _, d := range []struct {
		dst  *time.Duration
		v    types.String
		def  string
		name string
	}{
		{&s.DrainTimeout, m.DrainTimeout, defaults.DrainTimeout, "drain_timeout"},
		{&s.LeaseTTL, m.LeaseTTL, defaults.LeaseTTL, "lease_ttl"},
		{&s.MinHealthy, m.MinHealthyTime, defaults.MinHealthyTime, "min_healthy_time"},
		{&s.ReadyTimeout, m.ReadyTimeout, defaults.ReadyTimeout, "ready_timeout"},
	} {
		v, err := time.ParseDuration(orDefault(d.v, d.def))
		if err != nil {
			diags.AddError("Invalid "+d.name, err.Error())
			continue
		}
		*d.dst = v
	}

	var provLibSQL libsqlConn
	var provS3 s3Conn
	var provSSH sshDefaults
	if data != nil {
		provLibSQL, provS3, provSSH = data.libsql, data.s3, data.ssh
	}
	if s.Mode == config.ModeCentral {
		var lm libsqlModel
		if !m.LibSQL.IsNull() {
			diags.Append(m.LibSQL.As(ctx, &lm, objectAsOptions)...)
		}
		lm.AuthToken, lm.AdminToken = stringOrNull(sec.LibSQLAuth), stringOrNull(sec.LibSQLAdmin)
		c := provLibSQL.with(&lm)
		s.LibSQL = &config.LibSQL{URL: c.URL, AdminURL: c.AdminURL, AuthToken: secretOrNil(c.AuthToken), AdminToken: secretOrNil(c.AdminToken)}
		if c.CAFile != "" {
			b, err := os.ReadFile(c.CAFile)
			if err != nil {
				diags.AddAttributeError(tfpath.Root("libsql").AtName("ca_file"), "Cannot read the libSQL CA", err.Error())
			} else if !x509.NewCertPool().AppendCertsFromPEM(b) {
				diags.AddAttributeError(tfpath.Root("libsql").AtName("ca_file"), "Not a CA certificate", c.CAFile+" holds no PEM certificate.")
			}
			s.LibSQLCA, s.LibSQLCAFile = b, c.CAFile
		}
		var sm fleetS3Model
		if !m.S3.IsNull() {
			diags.Append(m.S3.As(ctx, &sm, objectAsOptions)...)
		}
		sc := provS3.with(&s3Model{Endpoint: sm.Endpoint, Region: sm.Region, AccessKey: sm.AccessKey, SecretKey: stringOrNull(sec.S3Secret), PathStyle: sm.PathStyle})
		s.S3 = &config.S3{Endpoint: sc.Endpoint, Region: sc.Region, Bucket: sm.Bucket.ValueString(),
			AccessKey: secretOrNil(sc.AccessKey), SecretKey: secretOrNil(sc.SecretKey), PathStyle: sc.PathStyle}
	}

	diags.Append(s.resolveTLS(ctx, m.TLS)...)

	if m.Workers.IsNull() {
		def := config.Default()
		s.Workers, s.Affinity = def.Workers, def.Affinity.Rules
	} else {
		var ws []workerModel
		diags.Append(m.Workers.ElementsAs(ctx, &ws, false)...)
		for i, w := range ws {
			s.Workers = append(s.Workers, w.config(sec.worker(i)))
		}
	}
	if !m.AffinityRules.IsNull() {
		var as []affinityModel
		diags.Append(m.AffinityRules.ElementsAs(ctx, &as, false)...)
		s.Affinity = nil
		for _, a := range as {
			s.Affinity = append(s.Affinity, config.AffinityRule{Namespace: a.Namespace.ValueString(), Path: a.Path.ValueString(), Header: a.Header.ValueString(), Query: a.Query.ValueString()})
		}
	}

	hs, d := hostsOf(ctx, m.Hosts)
	diags.Append(d...)
	ports := [3]int64{intOr(m.PublicPort, defaults.PublicPort), intOr(m.InternalPort, defaults.InternalPort), intOr(m.AdminPort, defaults.AdminPort)}
	for i := range hs {
		hk := sec.host(i)
		hs[i].sshHostModel = hs[i].withKey(hk.PrivateKey, hk.Passphrase)
	}
	s.Hosts = resolveHosts(s.Name, hs, ports, provSSH)
	for _, h := range s.Hosts {
		h.HTTPS = s.TLS != nil
	}
	if s.Mode == config.ModeCentral && !boolValue(m.Plaintext) && s.Secret != "" && s.Name != "" {
		ca, err := internaltls.FromSecret([]byte(s.Secret), s.Name)
		if err != nil {
			diags.AddError("Cannot derive the fleet CA", err.Error())
		}
		s.CA = ca
		if ca != nil {
			s.CACert = ca.CertPEM()
		}
	} else if s.Secret == "" && !m.InternalCA.IsNull() && !m.InternalCA.IsUnknown() {
		s.CACert = []byte(m.InternalCA.ValueString())
	}
	return s, true, diags
}

// CACertificate is internal_ca_certificate: the CA's PEM, or null.
func (s *fleetSpec) CACertificate() types.String {
	if s.CA == nil {
		return types.StringNull()
	}
	return types.StringValue(string(s.CA.CertPEM()))
}

// pki is h's TLS files: its internal TLS identity and the libSQL CA; nil
// when there are none.
func (s *fleetSpec) pki(h *hostSpec) (*deploy.PKI, error) {
	files := map[string][]byte{}
	if s.CA != nil {
		m, err := s.CA.Member(h.Member)
		if err != nil {
			return nil, err
		}
		files[pkiCA], files[pkiCert], files[pkiKey] = s.CA.CertPEM(), m.Cert, m.Key
	}
	if s.LibSQLCA != nil {
		files[pkiLibSQLCA] = s.LibSQLCA
	}
	if s.ACMERoot != nil {
		files[pkiACMERoot] = s.ACMERoot
	}
	if len(files) == 0 {
		return nil, nil
	}
	sum := sha256.New()
	for _, n := range []string{pkiCA, pkiCert, pkiLibSQLCA, pkiACMERoot} { // the key follows from the certificate
		fmt.Fprintf(sum, "%s %d\n", n, len(files[n]))
		sum.Write(files[n])
	}
	return &deploy.PKI{ID: hex.EncodeToString(sum.Sum(nil))[:16], Files: files}, nil
}

// The file names in a replica's pki directory.
const (
	pkiCA   = "ca.pem"
	pkiCert = "member.pem"
	pkiKey  = "member-key.pem"
	// pkiLibSQLCA is libsql.ca_file's copy.
	pkiLibSQLCA = "libsql-ca.pem"
	// pkiACMERoot is tls.acme_ca_root's copy.
	pkiACMERoot = "acme-ca-root.pem"
)

// resolveHosts applies the per-host defaults; a host without a key of
// its own uses the provider's ssh credentials.
func resolveHosts(name string, hs []hostModel, ports [3]int64, ssh sshDefaults) []*hostSpec {
	out := make([]*hostSpec, len(hs))
	perAddress := map[string]int{}
	for _, h := range hs {
		perAddress[h.Address.ValueString()]++
	}
	localN := 0
	for i, h := range hs {
		hs := &hostSpec{Index: i, Address: h.Address.ValueString()}
		hs.InstallDir = orDefault(h.InstallDir, defaults.InstallDir(name))
		if hs.Local() {
			localN++
			hs.Member = orDefault(h.Member, fmt.Sprintf("%s-%d", localAddress, localN))
		} else {
			hs.SSH = h.config(ssh)
			hs.Member = orDefault(h.Member, hs.Address)
		}
		dialHost := hs.Address
		if hs.Local() {
			dialHost = "127.0.0.1"
		}
		hs.Public = orDefault(h.Public, "0.0.0.0:"+strconv.FormatInt(ports[0], 10))
		hs.Internal = orDefault(h.Internal, "0.0.0.0:"+strconv.FormatInt(ports[1], 10))
		_, internalPort, _ := net.SplitHostPort(hs.Internal)
		hs.Advertise = orDefault(h.Advertise, net.JoinHostPort(dialHost, internalPort))
		hs.Admin = orDefault(h.Admin, "127.0.0.1:"+strconv.FormatInt(ports[2], 10))
		hs.Unit = "dwk-" + name + ".service"
		if perAddress[hs.Address] > 1 {
			hs.Unit = "dwk-" + name + "-" + unitSafe.ReplaceAllString(hs.Member, "-") + ".service"
		}
		out[i] = hs
	}
	return out
}

var unitSafe = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// render is the dwk.json of one host. It needs s.AdminToken.
func (s *fleetSpec) render(h *hostSpec) *config.Config {
	c := &config.Config{
		Fleet:    config.Fleet{Name: s.Name, Member: h.Member, Secret: secretOrNil(s.Secret)},
		Listen:   config.Listen{Public: h.Public, Admin: h.Admin},
		Storage:  config.Storage{Mode: s.Mode},
		Workers:  s.Workers,
		Affinity: config.Affinity{Rules: s.Affinity},
		Drain:    config.Drain{Timeout: config.Duration(s.DrainTimeout)},
		Lease:    config.Lease{TTL: config.Duration(s.LeaseTTL)},
		Admin:    config.Admin{Token: secretOrNil(s.AdminToken)},
		Log:      config.Log{Level: s.LogLevel},
	}
	var dir string
	if p, err := s.pki(h); err == nil && p != nil {
		dir = path.Join(h.InstallDir, deploy.PKIDir(p.ID))
	}
	if s.TLS != nil {
		t := *s.TLS
		if s.ACMERoot != nil {
			t.ACMECARoot = path.Join(dir, pkiACMERoot)
		}
		c.Listen.TLS = &t
	}
	if s.Mode == config.ModeCentral {
		c.Listen.Internal, c.Listen.Advertise = h.Internal, h.Advertise
		c.Storage.LibSQL, c.Storage.S3 = s.LibSQL, s.S3
		if !c.SharedCertificates() && c.Listen.TLS != nil {
			// Each replica keeps its certificates with its data.
			c.Storage.DataDir = path.Join(h.InstallDir, "data")
		}
		if dir != "" {
			if s.CA != nil {
				c.Listen.InternalTLS = &config.InternalTLS{
					CAFile: path.Join(dir, pkiCA), CertFile: path.Join(dir, pkiCert), KeyFile: path.Join(dir, pkiKey),
				}
			}
			if s.LibSQLCA != nil {
				lib := *s.LibSQL
				lib.CAFile = path.Join(dir, pkiLibSQLCA)
				c.Storage.LibSQL = &lib
			}
		}
	} else {
		c.Storage.DataDir = path.Join(h.InstallDir, "data")
	}
	return c
}

// deployHost is the deployer's view of h, with its rendered dwk.json.
func (s *fleetSpec) deployHost(h *hostSpec, t deploy.Target) (*deploy.Host, error) {
	dh := &deploy.Host{
		Name: h.Label(), Target: t, InstallDir: h.InstallDir, Service: s.Service, Unit: h.Unit,
		Member: h.Member, AdminAddr: deploy.DialAddr(h.Admin), AdminToken: s.AdminToken, DrainTimeout: s.DrainTimeout,
		Privileged: deploy.Privileged(s.listens(h)...),
	}
	b, err := config.Encode(s.render(h))
	if err != nil {
		return nil, fmt.Errorf("render dwk.json for %s: %w", h.Label(), err)
	}
	dh.Config = b
	dh.Projects = s.Projects
	if dh.PKI, err = s.pki(h); err != nil {
		return nil, fmt.Errorf("issue the TLS certificate of %s: %w", h.Label(), err)
	}
	if s.CACert != nil && !netaddr.Loopback(h.Admin) {
		if dh.AdminTLS, err = internaltls.AdminClientConfigPEM(s.CACert, s.Name); err != nil {
			return nil, fmt.Errorf("internal_ca_certificate: %w", err)
		}
	}
	return dh, nil
}

// configHash is the config_hash to record for h once it runs this spec
// ("" before the fleet has a salt).
func (s *fleetSpec) configHash(h *hostSpec) string { return s.recordedHash(s.render(h)) }

func orDefault(v types.String, def string) string {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return def
	}
	return v.ValueString()
}

func intOr(v types.Int64, def int64) int64 {
	if v.IsNull() || v.IsUnknown() {
		return def
	}
	return v.ValueInt64()
}

func secretOrNil(s string) *config.Secret {
	if s == "" {
		return nil
	}
	return config.Literal(s)
}

// config converts a worker, whose write-only secrets are secrets. A
// project is named by its artifact's path in the install directory.
func (w workerModel) config(secrets map[string]string) config.Worker {
	cw := config.Worker{Name: w.Name.ValueString(), Routes: w.Routes, Crons: w.Crons}
	if !w.ProjectHash.IsNull() && w.ProjectHash.ValueString() != "" {
		cw.Project = deploy.ProjectPath(w.ProjectHash.ValueString())
	}
	addSecret := func(name string, s *config.Secret) {
		if cw.Bindings.Secrets == nil {
			cw.Bindings.Secrets = map[string]*config.Secret{}
		}
		cw.Bindings.Secrets[name] = s
	}
	if b := w.Bindings; b != nil {
		cw.Bindings = config.Bindings{D1: b.D1, R2: b.R2, KV: b.KV, Queues: b.Queues, Objects: b.Objects, Vars: b.Vars, Services: b.Services}
		for name, file := range b.SecretFiles {
			addSecret(name, &config.Secret{File: file})
		}
	}
	for name, v := range secrets {
		addSecret(name, config.Literal(v))
	}
	for _, c := range w.Consumers {
		cc := config.Consumer{
			Queue: c.Queue.ValueString(), MaxBatchSize: int(intOr(c.MaxBatchSize, 0)), MaxConcurrency: int(intOr(c.MaxConcurrency, 0)),
			DeadLetterQueue: c.DeadLetterQueue.ValueString(),
		}
		if !c.MaxRetries.IsNull() {
			n := int(c.MaxRetries.ValueInt64())
			cc.MaxRetries = &n
		}
		cc.MaxBatchTimeout = durationOf(c.MaxBatchTimeout)
		cc.RetryDelay = durationOf(c.RetryDelay)
		cc.VisibilityTimeout = durationOf(c.VisibilityTimeout)
		cw.Consumers = append(cw.Consumers, cc)
	}
	return cw
}

// durationOf parses a validated duration; null is zero (the default).
func durationOf(v types.String) config.Duration {
	d, _ := time.ParseDuration(v.ValueString())
	return config.Duration(d)
}
