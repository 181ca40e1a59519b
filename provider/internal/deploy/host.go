// Package deploy installs, starts, rolls and removes dwk replicas on hosts.
//
// A host is anything with a Target: a machine reached over SSH, or the
// machine Terraform runs on. Everything the deployer writes lives in the
// host's install directory:
//
//	<install_dir>/.dwk-install        marks the directory as the deployer's
//	<install_dir>/bin/dwk-<sha[:12]>  binaries, named by content
//	<install_dir>/current            symlink to the active binary
//	<install_dir>/current.prev       the binary active before the last rollout
//	<install_dir>/dwk.json           the active config (0600)
//	<install_dir>/dwk.json.prev      the config active before the last rollout
//	<install_dir>/pki/<id>/          TLS and key files the config names
//	<install_dir>/projects/<hash[:12]>.dwkb  Workers projects the config names
//	<install_dir>/dwk.pid, dwk.log   the supervised process (service "process")
//	<install_dir>/data/              local-mode data (Host.DataDir)
//	<install_dir>/deploy.log         one line per deployment event
//
// plus, with systemd, /etc/systemd/system/<unit>. Remove deletes exactly
// these, then the install directory if nothing else is left in it; with
// Host.KeepData it leaves the data directory, and the install directory
// with its marker when the data is in it.
//
// What runs is a Program: a replica (dwk serve, config dwk.json) or the
// bundled libSQL server (dwk libsql, config libsql.json, which takes the
// place of dwk.json above).
package deploy

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"time"
)

// Service managers a host can run a replica under.
const (
	ServiceAuto    = "auto"
	ServiceSystemd = "systemd"
	ServiceProcess = "process"
)

// Host is one replica's place: where it is, how it runs, what it runs with.
type Host struct {
	// Name identifies the host in messages, e.g. "root@10.0.0.5:22".
	Name string
	// Target reaches the host.
	Target Target
	// InstallDir is an absolute path on the host.
	InstallDir string
	// Service is ServiceSystemd, ServiceProcess or ServiceAuto (detect).
	Service string
	// Unit is the systemd unit name, e.g. "dwk-prod.service".
	Unit string
	// Member is the replica's member name (for messages).
	Member string
	// AdminAddr is the admin listener as dialled from the host itself.
	AdminAddr string
	// AdminToken authenticates admin API calls.
	AdminToken string
	// Program is what the host runs; nil is a Replica.
	Program *Program
	// Config is the rendered config file (Program.ConfigFile).
	Config []byte
	// PKI is the replica's TLS files, nil without internal TLS.
	PKI *PKI
	// Projects are the Workers projects' artifacts Config names, each at
	// ProjectPath in the install directory.
	Projects []Project
	// AdminTLS, when set, is how the admin listener is reached: it
	// serves TLS (not on loopback, with internal TLS on).
	AdminTLS *tls.Config
	// DrainTimeout is the replica's drain.timeout: stopping waits this long
	// plus a margin before killing it.
	DrainTimeout time.Duration
	// DataDir is the program's data directory, an absolute path; ""
	// means <install_dir>/data.
	DataDir string
	// KeepData leaves DataDir (and the install directory holding it) in
	// place when the host is removed.
	KeepData bool
	// Privileged says the program binds a port below 1024 (see
	// Privileged): its systemd unit keeps CAP_NET_BIND_SERVICE.
	Privileged bool
}

// Artifact is the dwk binary to deploy.
type Artifact struct {
	// Path on the machine Terraform runs on.
	Path string
	// SHA256 of the file, hex.
	SHA256 string
}

// ID is the short content id the binary is installed under.
func (a Artifact) ID() string {
	if len(a.SHA256) < 12 {
		return a.SHA256
	}
	return a.SHA256[:12]
}

// HashFile returns the hex sha256 of the file at p.
func HashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("artifact: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("artifact %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Paths inside an install directory.
func (h *Host) path(elem ...string) string {
	return path.Join(append([]string{h.InstallDir}, elem...)...)
}

func (h *Host) q(elem ...string) string { return quote(h.path(elem...)) }

// dataDir is h's data directory.
func (h *Host) dataDir() string {
	if h.DataDir != "" {
		return h.DataDir
	}
	return h.path("data")
}

// binary is the install path of an artifact's binary.
func (h *Host) binary(a Artifact) string { return h.path("bin", "dwk-"+a.ID()) }

// DialAddr turns a listen address into one a client on the same host can
// dial: a wildcard host becomes the loopback.
func DialAddr(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::", "[::]":
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
