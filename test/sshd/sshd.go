// Package sshd gives tests real SSH hosts: OpenSSH sshd instances on
// loopback addresses (127.0.0.2, 127.0.0.3, …), each on a free port with its
// own host key generated in t.TempDir(), an authorized_keys holding one
// test client key, and an empty install directory. They run as the test's
// user (root in CI, since the provider tests install services), with
// UsePAM no and StrictModes no, and are killed when the test ends.
//
// sshd comes from Debian's openssh-server package:
//
//	apt-get install -y openssh-server
//
// Start skips the test when /usr/sbin/sshd is missing, saying how to
// install it, or fails it under CI (see test/needtool); it skips when the
// test does not run as root.
package sshd

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/needtool"
)

// Binary is where Debian installs sshd.
const Binary = "/usr/sbin/sshd"

// InstallHint says how to get sshd.
const InstallHint = "apt-get install -y openssh-server"

// Host is one running sshd.
type Host struct {
	// Address is the loopback address sshd listens on, e.g. "127.0.0.2".
	Address string
	// Port is its TCP port.
	Port int
	// User to log in as.
	User string
	// PrivateKey is the client key (OpenSSH PEM) in authorized_keys.
	PrivateKey string
	// HostKey is the server's public host key in authorized_keys format
	// ("ssh-ed25519 AAAA…").
	HostKey string
	// InstallDir is an empty directory reserved for this host's install
	// (it does not exist yet: the provider creates it).
	InstallDir string
	// Dir holds the sshd configuration, keys and log.
	Dir string

	cmd  *exec.Cmd
	logs *logBuffer
	done chan struct{}
}

// logBuffer collects sshd's output. Host holds a pointer to it, so tests
// may copy a Host (to give it a wrong key, say).
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Start starts n sshd instances on 127.0.0.2 … 127.0.0.(n+1).
func Start(t testing.TB, n int) []*Host {
	t.Helper()
	needtool.File(t, "sshd", Binary, InstallHint)
	if os.Geteuid() != 0 {
		t.Skip("sshd tests run sshd as root (it must switch users and read host keys); run them as root")
	}
	// sshd refuses to start without its privilege separation directory.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	clientPriv, clientPub := newKey(t, "dwk-test-client")
	u, err := user.Current()
	if err != nil {
		t.Fatalf("sshd: %v", err)
	}
	hosts := make([]*Host, n)
	for i := range n {
		h := &Host{
			Address: "127.0.0." + strconv.Itoa(i+2), User: u.Username, PrivateKey: clientPriv,
			Dir: t.TempDir(), done: make(chan struct{}), logs: &logBuffer{},
		}
		h.InstallDir = filepath.Join(t.TempDir(), "install")
		h.start(t, clientPub)
		hosts[i] = h
	}
	return hosts
}

func (h *Host) start(t testing.TB, authorized string) {
	t.Helper()
	hostPriv, hostPub := newKey(t, "dwk-test-host-"+h.Address)
	h.HostKey = hostPub
	write(t, filepath.Join(h.Dir, "host_ed25519_key"), hostPriv, 0o600)
	write(t, filepath.Join(h.Dir, "authorized_keys"), authorized+"\n", 0o600)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		h.Port = freeport.Port(t, h.Address)
		write(t, filepath.Join(h.Dir, "sshd_config"), h.config(), 0o600)
		if err = h.run(); err == nil {
			t.Cleanup(h.Stop)
			return
		}
	}
	t.Fatalf("sshd on %s: %v", h.Address, err)
}

// config is the sshd_config of h.
func (h *Host) config() string {
	return strings.Join([]string{
		"ListenAddress " + net.JoinHostPort(h.Address, strconv.Itoa(h.Port)),
		"HostKey " + filepath.Join(h.Dir, "host_ed25519_key"),
		"AuthorizedKeysFile " + filepath.Join(h.Dir, "authorized_keys"),
		"PidFile " + filepath.Join(h.Dir, "sshd.pid"),
		"UsePAM no",
		"StrictModes no",
		"PermitRootLogin prohibit-password",
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"AllowTcpForwarding yes",
		"MaxStartups 100",
		"MaxSessions 100",
		"LogLevel VERBOSE",
		"",
	}, "\n")
}

// run starts sshd in the foreground (-D) logging to stderr (-e) and waits
// until it listens.
func (h *Host) run() error {
	cmd := exec.Command(Binary, "-D", "-e", "-f", filepath.Join(h.Dir, "sshd_config"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", Binary, err)
	}
	h.cmd = cmd
	h.done = make(chan struct{})
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			h.logs.mu.Lock()
			h.logs.b.WriteString(line + "\n")
			h.logs.mu.Unlock()
			if strings.Contains(line, "Server listening on") {
				once.Do(func() { close(listening) })
			}
		}
	}()
	go func() {
		cmd.Wait()
		pw.Close()
		close(h.done)
	}()
	select {
	case <-listening:
		return nil
	case <-h.done:
		return fmt.Errorf("sshd exited: %s", h.Logs())
	case <-time.After(30 * time.Second):
		h.Stop()
		return fmt.Errorf("sshd did not listen within 30s: %s", h.Logs())
	}
}

// Logs is everything sshd printed.
func (h *Host) Logs() string {
	h.logs.mu.Lock()
	defer h.logs.mu.Unlock()
	return h.logs.b.String()
}

// Addr is "address:port".
func (h *Host) Addr() string { return net.JoinHostPort(h.Address, strconv.Itoa(h.Port)) }

// Stop kills sshd and its sessions.
func (h *Host) Stop() {
	if h.cmd == nil || h.cmd.Process == nil {
		return
	}
	select {
	case <-h.done:
		return
	default:
	}
	syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
	<-h.done
}

// Client opens an SSH connection to h as the test client, verifying the
// host key.
func (h *Host) Client(t testing.TB) *ssh.Client {
	t.Helper()
	signer, err := ssh.ParsePrivateKey([]byte(h.PrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(h.HostKey))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssh.Dial("tcp", h.Addr(), &ssh.ClientConfig{
		User: h.User, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: ssh.FixedHostKey(pub), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatalf("ssh %s: %v\nsshd log:\n%s", h.Addr(), err, h.Logs())
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// NewKey returns a new ed25519 key pair: the private key in OpenSSH PEM form
// and the public key in authorized_keys form (with comment).
func NewKey(t testing.TB, comment string) (private, public string) {
	t.Helper()
	return newKey(t, comment)
}

func newKey(t testing.TB, comment string) (string, string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))) + " " + comment
	return string(pem.EncodeToMemory(block)), line
}

func write(t testing.TB, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatalf("sshd: %v", err)
	}
}
