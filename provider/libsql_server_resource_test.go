package provider

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccLibSQLServer deploys dwk libsql, serving TLS, to an sshd host and writes a row
// with the full-access token; upgrades the binary (the row survives);
// rotates the JWT key (the old tokens are refused, the new ones work);
// imports it; plans to repair a server killed behind Terraform's back; destroys
// it keeping the data dir, which a new server serves again; and destroys
// with force_destroy, which removes everything.
func TestAccLibSQLServer(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	host := sshd.Start(t, 1)[0]
	v1, v2 := binaries(t)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, v1, artifact)
	listen := net.JoinHostPort(host.Address, strconv.Itoa(freeport.Port(t, host.Address)))
	admin := net.JoinHostPort(host.Address, strconv.Itoa(freeport.Port(t, host.Address)))
	th := testHost{ssh: host, installDir: host.InstallDir}
	killLeftovers(t, []testHost{th})
	data := filepath.Join(host.InstallDir, "data")
	certFile, keyFile := selfSigned(t, host.Address)

	cfg := func(extra string) string {
		return providerSSH([]testHost{th}) + fmt.Sprintf(`
resource "dwk_libsql_server" "db" {
  host = {
    address     = %q
    port        = %d
    user        = %q
    private_key = %q
    host_key    = %q
  }
  artifact      = %q
  install_dir   = %q
  listen        = %q
  admin_listen  = %q
  tls_cert_file = %q
  tls_key_file  = %q
  %s
}
`, host.Address, host.Port, host.User, host.PrivateKey, host.HostKey, artifact, host.InstallDir, listen, admin, certFile, keyFile, extra)
	}
	const res = "dwk_libsql_server.db"
	var oldFull, oldRO string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			if _, err := os.Stat(host.InstallDir); !os.IsNotExist(err) {
				return fmt.Errorf("force_destroy left %s behind (%v)", host.InstallDir, err)
			}
			if pids := processesIn(host.InstallDir); len(pids) > 0 {
				return fmt.Errorf("processes left running: %v", pids)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(res, "url", "https://"+listen),
					resource.TestCheckResourceAttr(res, "admin_url", "https://"+admin),
					resource.TestCheckResourceAttr(res, "state", "running"),
					resource.TestCheckResourceAttr(res, "service_manager", "process"),
					func(s *terraform.State) error {
						a := s.RootModule().Resources[res].Primary.Attributes
						oldFull, oldRO = a["auth_token"], a["read_only_token"]
						if err := hranaOK(listen, oldFull, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')"); err != nil {
							return fmt.Errorf("write with auth_token: %w", err)
						}
						if err := hranaOK(listen, oldRO, "INSERT INTO t VALUES ('no')"); err == nil {
							return fmt.Errorf("read_only_token could write")
						}
						if err := hranaOK(listen, "", "SELECT 1"); err == nil {
							return fmt.Errorf("no token was let in")
						}
						if code := adminStatus(admin, a["admin_token"]); code != http.StatusOK {
							return fmt.Errorf("admin API with admin_token: %d", code)
						}
						if code := adminStatus(admin, "wrong-key-0123456789"); code != http.StatusUnauthorized {
							return fmt.Errorf("admin API with a wrong key: %d, want 401", code)
						}
						if strings.Contains(s.String(), "PRIVATE KEY") {
							return fmt.Errorf("a private key is in the state")
						}
						return nil
					},
				),
			},
			{
				// A new binary at the same path restarts the server on it;
				// the data stays.
				PreConfig: func() { copyFile(t, v2, artifact) },
				Config:    cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(res, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if v := httpGet("https://" + listen + "/version"); v != "dwk-libsql acc-v2" {
						return fmt.Errorf("/version after the upgrade: %q", v)
					}
					return hranaHas(listen, oldFull, "kept")
				},
			},
			{
				// A new key pair: the old tokens are refused, the new ones
				// read the data.
				Config: cfg(`jwt_key_version = "2"`),
				Check: func(s *terraform.State) error {
					a := s.RootModule().Resources[res].Primary.Attributes
					if a["auth_token"] == oldFull {
						return fmt.Errorf("auth_token unchanged by the rotation")
					}
					for _, old := range []string{oldFull, oldRO} {
						if err := hranaOK(listen, old, "SELECT 1"); err == nil || !strings.Contains(err.Error(), "401") {
							return fmt.Errorf("an old token after the rotation: %v, want 401", err)
						}
					}
					if err := hranaHas(listen, a["read_only_token"], "kept"); err != nil {
						return err
					}
					return hranaHas(listen, a["auth_token"], "kept")
				},
			},
			{
				ResourceName:      res,
				ImportState:       true,
				ImportStateId:     fmt.Sprintf("ssh://%s@%s/%s?host_key=%s", host.User, host.Addr(), strings.TrimPrefix(host.InstallDir, "/"), url.QueryEscape(host.HostKey)),
				ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{
					"artifact", "auth_token", "read_only_token", "tokens_expire", "config_hash", "host.private_key", "jwt_key_version",
					"tls_cert_file", "tls_key_file", // local paths: the host holds copies
				},
			},
			{
				// A server killed behind Terraform's back shows in the plan
				// (the recreate below shows an apply starting it again).
				PreConfig:          func() { killReplica(t, th) },
				Config:             cfg(`jwt_key_version = "2"`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// Destroy keeps the data dir; a new server there serves it.
				Config:  cfg(`jwt_key_version = "2"`),
				Destroy: true,
				Check: func(*terraform.State) error {
					if _, err := os.Stat(filepath.Join(data, "dbs")); err != nil {
						return fmt.Errorf("the data dir was not kept: %v", err)
					}
					if pids := processesIn(host.InstallDir); len(pids) > 0 {
						return fmt.Errorf("processes left running: %v", pids)
					}
					return nil
				},
			},
			{
				Config: cfg(`force_destroy = true`),
				Check: func(s *terraform.State) error {
					return hranaHas(listen, s.RootModule().Resources[res].Primary.Attributes["auth_token"], "kept")
				},
			},
		},
	})
}

// tlsClient trusts the test's self-signed libSQL certificate (its CA
// pool is filled by selfSigned).
var tlsClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: x509.NewCertPool()}}}

// selfSigned writes a self-signed certificate for ip and its key, and
// makes tlsClient trust it.
func selfSigned(t *testing.T, ip string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "dwk libsql test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP(ip)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "libsql.pem"), filepath.Join(dir, "libsql-key.pem")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	tlsClient.Transport.(*http.Transport).TLSClientConfig.RootCAs.AppendCertsFromPEM(certPEM)
	return certFile, keyFile
}

// hranaOK runs sql (statements separated by "; ") on the default
// namespace with token; an error carries the HTTP status or the SQL error.
func hranaOK(addr, token, sql string) error {
	_, err := hranaQuery(addr, token, sql)
	return err
}

// hranaHas checks that table t holds the value want.
func hranaHas(addr, token, want string) error {
	rows, err := hranaQuery(addr, token, "SELECT v FROM t")
	if err != nil {
		return err
	}
	if !strings.Contains(rows, `"`+want+`"`) {
		return fmt.Errorf("table t holds %s, want %q", rows, want)
	}
	return nil
}

func hranaQuery(addr, token, sql string) (string, error) {
	var reqs []map[string]any
	for _, s := range strings.Split(sql, "; ") {
		reqs = append(reqs, map[string]any{"type": "execute", "stmt": map[string]any{"sql": s}})
	}
	body, _ := json.Marshal(map[string]any{"requests": reqs})
	req, _ := http.NewRequest(http.MethodPost, "https://"+addr+"/v2/pipeline", bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := tlsClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%d: %s", resp.StatusCode, b)
	}
	var out struct {
		Results []struct {
			Type     string          `json:"type"`
			Error    json.RawMessage `json:"error"`
			Response json.RawMessage `json:"response"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "", err
	}
	var rows string
	for _, r := range out.Results {
		if r.Type != "ok" {
			return "", fmt.Errorf("statement failed: %s", r.Error)
		}
		rows = string(r.Response)
	}
	return rows, nil
}

// adminStatus is the status of GET /v1/namespaces with key.
func adminStatus(addr, key string) int {
	req, _ := http.NewRequest(http.MethodGet, "https://"+addr+"/v1/namespaces", nil)
	req.Header.Set("Authorization", "Basic "+key)
	resp, err := tlsClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func httpGet(u string) string {
	resp, err := tlsClient.Get(u)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
