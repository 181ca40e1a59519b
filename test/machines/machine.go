package machines

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

const (
	// bootTimeout bounds a boot, from starting systemd-nspawn until the
	// machine is ready.
	bootTimeout = 90 * time.Second
	// stopTimeout bounds the wait for systemd-nspawn to exit once the
	// machine's init is killed.
	stopTimeout = 30 * time.Second
)

// Machine is one booted container.
type Machine struct {
	// Name is its host name, e.g. "m1".
	Name string
	// Address is its IPv4 address on the bridge, e.g. "10.231.7.11".
	Address string
	// Port is the port sshd listens on.
	Port int
	// User is the user the client key logs in as.
	User string
	// HostKey is its SSH host key in authorized_keys form
	// ("ssh-ed25519 AAAA…"), new for every machine.
	HostKey string
	// Dir is its root directory on the host. It persists across PowerOff
	// and Start and is removed when the test ends.
	Dir string

	unit       string // systemd-nspawn machine name, unique on the host
	bridge     string
	privateKey string
	logPath    string

	mu     sync.Mutex
	cmd    *exec.Cmd     // systemd-nspawn, while started
	done   chan struct{} // closed when cmd exits
	client *ssh.Client
}

// Addr is "address:port" of its sshd.
func (m *Machine) Addr() string { return net.JoinHostPort(m.Address, strconv.Itoa(m.Port)) }

// Start boots m again on its root directory, which keeps what earlier
// boots wrote, and waits until it is ready. It fails t if m is running or
// does not become ready within 90 seconds.
func (m *Machine) Start(t testing.TB) {
	t.Helper()
	if err := m.launch(); err != nil {
		t.Fatalf("machines: %v", err)
	}
	state, err := m.waitReady()
	if err != nil {
		t.Fatalf("machines: %v", err)
	}
	m.logState(t, state)
}

// PowerOff cuts m's power: it kills m's init with SIGKILL, which kills
// every process in the machine at once, without shutdown, and waits for
// systemd-nspawn to exit. Writes already made survive (they are in the
// host's page cache). It does nothing if m is not running.
func (m *Machine) PowerOff(t testing.TB) {
	t.Helper()
	if err := m.powerOff(); err != nil {
		t.Fatalf("machines: %v", err)
	}
}

// Log returns the tail of m's console output, across all its boots.
func (m *Machine) Log() string { return tail(m.logPath, 60) }

// launch starts systemd-nspawn booting m.
func (m *Machine) launch() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running() {
		return fmt.Errorf("%s is already running", m.Name)
	}
	veth := "vb-" + m.unit
	if err := waitLinkGone(veth); err != nil {
		return fmt.Errorf("%s: %w", m.Name, err)
	}
	f, err := os.OpenFile(m.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(f, "\n--- %s boot at %s ---\n", m.Name, time.Now().Format(time.RFC3339))
	cmd := exec.Command("systemd-nspawn",
		"--directory="+m.Dir, "--boot", "--machine="+m.unit,
		"--register=no", "--keep-unit", "--console=read-only",
		"--network-bridge="+m.bridge)
	cmd.Stdout, cmd.Stderr = f, f
	// Own process group: a ^C meant for go test does not reach it. If the
	// test process dies, nspawn gets SIGTERM and shuts the machine down.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", m.Name, err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	m.cmd, m.done = cmd, done
	return nil
}

// running reports whether systemd-nspawn runs; the caller holds m.mu.
func (m *Machine) running() bool {
	if m.cmd == nil {
		return false
	}
	select {
	case <-m.done:
		return false
	default:
		return true
	}
}

// waitReady waits until m accepts SSH logins and systemd has finished
// booting, and returns the system state: "running" or "degraded".
func (m *Machine) waitReady() (string, error) {
	m.mu.Lock()
	cmd, done := m.cmd, m.done
	m.mu.Unlock()
	deadline := time.Now().Add(bootTimeout)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	last := "nothing"
	for {
		out, err := m.run(ctx, "systemctl is-system-running --wait")
		state := strings.TrimSpace(string(out))
		if state == "running" || state == "degraded" {
			return state, nil
		}
		switch {
		case err != nil && state != "":
			last = fmt.Sprintf("%v: %s", err, state)
		case err != nil:
			last = err.Error()
		default:
			last = fmt.Sprintf("system state %q", state)
		}
		select {
		case <-done:
			return "", fmt.Errorf("%s: systemd-nspawn exited (%v) before the machine was ready; last seen: %s\nconsole:\n%s",
				m.Name, cmd.ProcessState, last, m.Log())
		case <-ctx.Done():
			return "", fmt.Errorf("%s: not ready within %v; last seen: %s\nconsole:\n%s",
				m.Name, bootTimeout, last, m.Log())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// logState logs the failed units when m booted degraded.
func (m *Machine) logState(t testing.TB, state string) {
	t.Helper()
	if state == "running" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := m.run(ctx, "systemctl --failed --no-legend --no-pager")
	t.Logf("machines: %s booted %s; failed units:\n%s", m.Name, state, out)
}

// powerOff kills m's init and waits for systemd-nspawn to exit.
func (m *Machine) powerOff() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.client != nil {
		m.client.Close()
		m.client = nil
	}
	if !m.running() {
		return nil
	}
	nspawn := m.cmd.Process.Pid
	var pid int
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if pid, err = containerInit(nspawn); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err == nil {
		err = syscall.Kill(pid, syscall.SIGKILL)
	}
	if err == nil {
		select {
		case <-m.done:
			return nil
		case <-time.After(stopTimeout):
			err = fmt.Errorf("systemd-nspawn did not exit within %v after its init (pid %d) was killed", stopTimeout, pid)
		}
	}
	// Last resort: kill systemd-nspawn itself.
	syscall.Kill(-nspawn, syscall.SIGKILL)
	select {
	case <-m.done:
	case <-time.After(stopTimeout):
	}
	return fmt.Errorf("power off %s: %w\nconsole:\n%s", m.Name, err, m.Log())
}

// containerInit returns the host PID of the init of the container that
// systemd-nspawn (pid nspawn) runs: its child that is PID 1 in its own
// PID namespace.
func containerInit(nspawn int) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var ppid, nspid string
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "PPid:"); ok {
				ppid = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "NSpid:"); ok {
				nspid = strings.TrimSpace(v)
			}
		}
		f := strings.Fields(nspid)
		if ppid == strconv.Itoa(nspawn) && len(f) > 1 && f[len(f)-1] == "1" {
			return pid, nil
		}
	}
	return 0, errors.New("systemd-nspawn has no container init")
}

// waitLinkGone waits until the network interface name, left by an earlier
// boot, is gone, and deletes it if it lingers.
func waitLinkGone(name string) error {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err := net.InterfaceByName(name); err != nil {
			return nil
		}
	}
	return ip("link", "del", name)
}
