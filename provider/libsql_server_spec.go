package provider

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	tfpath "github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
)

// serverSecrets are dwk_libsql_server's write-only arguments, which only
// a configuration holds.
type serverSecrets struct {
	AdminKey, BackupSecret string
	PrivateKey, Passphrase string
}

// serverSecretsOf reads the write-only arguments from a configuration.
// known is false while one of them is unknown.
func serverSecretsOf(ctx context.Context, cfg tfsdk.Config) (sec serverSecrets, known bool, diags diag.Diagnostics) {
	var m libsqlServerModel
	if diags = cfg.Get(ctx, &m); diags.HasError() {
		return sec, false, diags
	}
	vals := []types.String{m.AdminKey}
	if m.Host != nil {
		vals = append(vals, m.Host.PrivateKey, m.Host.Passphrase)
	}
	if m.Backup != nil {
		vals = append(vals, m.Backup.SecretKey)
	}
	for _, v := range vals {
		if v.IsUnknown() {
			return sec, false, nil
		}
	}
	sec.AdminKey = m.AdminKey.ValueString()
	if m.Host != nil {
		sec.PrivateKey, sec.Passphrase = m.Host.PrivateKey.ValueString(), m.Host.Passphrase.ValueString()
	}
	if m.Backup != nil {
		sec.BackupSecret = m.Backup.SecretKey.ValueString()
	}
	return sec, true, nil
}

// serverSpec is a dwk_libsql_server whose arguments are known, with the
// defaults applied: what the host gets.
type serverSpec struct {
	Name        string
	SSH         sshtarget.Config
	InstallDir  string
	DataDir     string
	Listen      string
	AdminListen string
	PublicHost  string
	// TLSCert and TLSKey are the contents of tls_cert_file and
	// tls_key_file, nil without TLS.
	TLSCert, TLSKey []byte
	// AdminKey and JWTPublicKey (PEM) are "" until an apply knows them.
	AdminKey     string
	JWTPublicKey string
	// Backup holds the --backup-s3-* flags, nil without a backup.
	Backup        map[string]any
	BackupSecret  string
	Artifact      deploy.Artifact
	Service       string
	ReadyTimeout  time.Duration
	TokenLifetime time.Duration
	ForceDestroy  bool
	// Salt keys config_hash; "" before the first apply.
	Salt string
}

// resolveServer turns the model into a spec. known is false while a part
// the spec needs is unknown.
func resolveServer(ctx context.Context, m *libsqlServerModel, sec serverSecrets, data *providerData) (s *serverSpec, known bool, diags diag.Diagnostics) {
	if m.Host == nil || !fullyKnown(ctx, m.Name, m.Host.Address, m.Host.Port, m.Host.User, m.Host.HostKey, m.Artifact, m.ArtifactSHA256,
		m.InstallDir, m.DataDir, m.Listen, m.AdminListen, m.PublicHost, m.TLSCertFile, m.TLSKeyFile, m.Service, m.ReadyTimeout,
		m.TokenLifetime, m.ForceDestroy) {
		return nil, false, nil
	}
	if b := m.Backup; b != nil && !fullyKnown(ctx, b.Bucket, b.Prefix, b.Endpoint, b.Region, b.AccessKey, b.PathStyle, b.Lag, b.SnapshotInterval, b.Retention) {
		return nil, false, nil
	}
	var ssh sshDefaults
	if data != nil {
		ssh = data.ssh
	}
	s = &serverSpec{
		Name:   orDefault(m.Name, defaults.LibSQLName),
		SSH:    m.Host.withKey(sec.PrivateKey, sec.Passphrase).config(ssh),
		Listen: orDefault(m.Listen, defaults.LibSQLListen), AdminListen: orDefault(m.AdminListen, defaults.LibSQLAdminListen),
		AdminKey: sec.AdminKey, BackupSecret: sec.BackupSecret, JWTPublicKey: m.JWTPublicKey.ValueString(),
		Artifact:     deploy.Artifact{Path: m.Artifact.ValueString(), SHA256: m.ArtifactSHA256.ValueString()},
		Service:      orDefault(m.Service, defaults.Service),
		ForceDestroy: boolValue(m.ForceDestroy),
	}
	s.InstallDir = orDefault(m.InstallDir, defaults.InstallDir(s.Name))
	s.DataDir = orDefault(m.DataDir, path.Join(s.InstallDir, "data"))
	s.PublicHost = orDefault(m.PublicHost, s.SSH.Address)
	for _, d := range []struct {
		dst       *time.Duration
		v         types.String
		def, name string
	}{
		{&s.ReadyTimeout, m.ReadyTimeout, defaults.ReadyTimeout, "ready_timeout"},
		{&s.TokenLifetime, m.TokenLifetime, defaults.LibSQLTokenLifetime, "token_lifetime"},
	} {
		v, err := time.ParseDuration(orDefault(d.v, d.def))
		if err != nil {
			diags.AddAttributeError(tfpath.Root(d.name), "Invalid "+d.name, err.Error())
		}
		*d.dst = v
	}
	if f := m.TLSCertFile.ValueString(); f != "" {
		var err error
		if s.TLSCert, err = os.ReadFile(f); err != nil {
			diags.AddAttributeError(tfpath.Root("tls_cert_file"), "Cannot read the TLS certificate", err.Error())
		}
		if s.TLSKey, err = os.ReadFile(m.TLSKeyFile.ValueString()); err != nil {
			diags.AddAttributeError(tfpath.Root("tls_key_file"), "Cannot read the TLS key", err.Error())
		}
		if !diags.HasError() {
			if _, err := tls.X509KeyPair(s.TLSCert, s.TLSKey); err != nil {
				diags.AddAttributeError(tfpath.Root("tls_cert_file"), "Not a TLS certificate and key", err.Error())
			}
		}
	}
	if b := m.Backup; b != nil {
		s.Backup = map[string]any{"backup-s3-bucket": b.Bucket.ValueString()}
		for flag, v := range map[string]types.String{
			"backup-s3-prefix": b.Prefix, "backup-s3-endpoint": b.Endpoint, "backup-s3-region": b.Region,
			"backup-s3-access-key": b.AccessKey, "backup-lag": b.Lag, "backup-snapshot-interval": b.SnapshotInterval,
			"backup-retention": b.Retention,
		} {
			if v.ValueString() != "" {
				s.Backup[flag] = v.ValueString()
			}
		}
		if boolValue(b.PathStyle) {
			s.Backup["backup-s3-path-style"] = true
		}
	}
	return s, true, diags
}

// The files in the server's pki directory.
const (
	pkiJWT    = "jwt.pem"
	pkiTLS    = "tls.pem"
	pkiTLSKey = "tls-key.pem"
)

// pki is the server's key and TLS files.
func (s *serverSpec) pki() *deploy.PKI {
	files := map[string][]byte{pkiJWT: []byte(s.JWTPublicKey)}
	if s.TLSCert != nil {
		files[pkiTLS], files[pkiTLSKey] = s.TLSCert, s.TLSKey
	}
	sum := sha256.New()
	for _, n := range []string{pkiJWT, pkiTLS} { // the key follows from the certificate
		fmt.Fprintf(sum, "%s %d\n", n, len(files[n]))
		sum.Write(files[n])
	}
	return &deploy.PKI{ID: hex.EncodeToString(sum.Sum(nil))[:16], Files: files}
}

// render is the server's libsql.json: dwk libsql's flags by name (see
// dwk libsql --config), with the admin key and the backup's secret key.
func (s *serverSpec) render() []byte {
	dir := path.Join(s.InstallDir, deploy.PKIDir(s.pki().ID))
	flags := map[string]any{
		"http-listen-addr":  s.Listen,
		"admin-listen-addr": s.AdminListen,
		"db-path":           s.DataDir,
		"auth-jwt-key-file": path.Join(dir, pkiJWT),
		"admin-auth-key":    s.AdminKey,
	}
	if s.TLSCert != nil {
		flags["tls-cert-file"], flags["tls-key-file"] = path.Join(dir, pkiTLS), path.Join(dir, pkiTLSKey)
	}
	for k, v := range s.Backup {
		flags[k] = v
	}
	if s.BackupSecret != "" {
		flags["backup-s3-secret-key"] = s.BackupSecret
	}
	b, _ := json.MarshalIndent(flags, "", "  ") // keys sorted: the same config renders the same bytes
	return append(b, '\n')
}

// configHash is the config_hash of a libsql.json: an HMAC-SHA256 keyed
// by the resource's random salt, so that the state holds no plain digest
// of a file that holds secrets. "" without a salt.
func configHash(salt string, file []byte) string {
	if salt == "" || len(file) == 0 {
		return ""
	}
	mac := hmac.New(sha256.New, []byte(salt))
	mac.Write(file)
	return hex.EncodeToString(mac.Sum(nil))
}

// hash is config_hash for the spec, "" while the admin key, the JWT key
// or the salt is unknown.
func (s *serverSpec) hash() string {
	if s.AdminKey == "" || s.JWTPublicKey == "" {
		return ""
	}
	return configHash(s.Salt, s.render())
}

// scheme is the URLs' scheme.
func (s *serverSpec) scheme() string {
	if s.TLSCert != nil {
		return "https"
	}
	return "http"
}

// urlOf is the URL of a listen address as clients reach it.
func (s *serverSpec) urlOf(listen string) string {
	_, port, _ := net.SplitHostPort(listen)
	return s.scheme() + "://" + net.JoinHostPort(s.PublicHost, port)
}

// id is the resource's id (and import id without its query).
func (s *serverSpec) id() string {
	return (&serverID{User: s.SSH.User, Address: s.SSH.Address, Port: s.SSH.Port, InstallDir: s.InstallDir}).String()
}

// connect returns a lazy SSH target to the server's host (the caller
// closes it) and the host as the deployer sees it; a TLS probe that cannot
// be set up is reported in diags.
func (s *serverSpec) connect(diags *diag.Diagnostics) (*sshtarget.Lazy, *deploy.Host, bool) {
	t := sshtarget.NewLazy(s.SSH)
	h, err := s.deployHost(t)
	if err != nil {
		t.Close()
		diags.AddError("Cannot set up the TLS probe", err.Error())
		return nil, nil, false
	}
	return t, h, true
}

// deployHost is the deployer's view of the server, reached through t.
func (s *serverSpec) deployHost(t deploy.Target) (*deploy.Host, error) {
	h := &deploy.Host{
		Name: s.SSH.Name(), Target: t, InstallDir: s.InstallDir, Service: s.Service, Unit: "dwk-" + s.Name + ".service",
		Member: s.Name, AdminAddr: deploy.DialAddr(s.Listen), Program: deploy.LibSQLServer, Config: s.render(), PKI: s.pki(),
		DrainTimeout: defaults.LibSQLStopTimeout, DataDir: s.DataDir, KeepData: !s.ForceDestroy,
		Privileged: deploy.Privileged(s.Listen, s.AdminListen),
	}
	if s.TLSCert != nil {
		c, err := pinned(s.TLSCert)
		if err != nil {
			return nil, err
		}
		h.AdminTLS = c
	}
	return h, nil
}

// pinned is the TLS client config of the readiness probe: it accepts
// exactly the server certificate the host was given (the probe goes to
// the host's own loopback, where no name in the certificate need match).
func pinned(certPEM []byte) (*tls.Config, error) {
	blk, _ := pem.Decode(certPEM)
	if blk == nil {
		return nil, errors.New("tls_cert_file holds no PEM certificate")
	}
	want := blk.Bytes
	return &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: true, // replaced by the pin below
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || !bytes.Equal(raw[0], want) {
				return errors.New("the server presented a certificate other than tls_cert_file")
			}
			return nil
		},
	}, nil
}
