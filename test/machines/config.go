package machines

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
)

// file is one file configure writes into a machine's root directory.
type file struct {
	path string // relative to the root
	data string
	mode os.FileMode
}

// configure gives the copy of the root file system in m.Dir its identity:
// host name, hosts file, machine ID, static address, the SSH host key
// hostPriv (m.HostKey is its public half) and authorizedKey for root.
// hosts is the /etc/hosts of every machine of the set.
func configure(m *Machine, hostPriv, hosts, gateway, authorizedKey string) error {
	id := make([]byte, 16)
	rand.Read(id)
	network := fmt.Sprintf("[Match]\nName=host0\n\n[Network]\nAddress=%s/24\nGateway=%s\n", m.Address, gateway)
	// Debian's sshd_config includes sshd_config.d first; naming the one
	// host key spares sshd looking for the others.
	sshd := "HostKey /etc/ssh/ssh_host_ed25519_key\n"
	files := []file{
		{"etc/hostname", m.Name + "\n", 0o644},
		{"etc/hosts", hosts, 0o644},
		{"etc/machine-id", hex.EncodeToString(id) + "\n", 0o444},
		// 10- sorts before the stock 80-container-host0.network (DHCP),
		// so it is the one networkd applies.
		{"etc/systemd/network/10-host0.network", network, 0o644},
		{"etc/ssh/ssh_host_ed25519_key", hostPriv, 0o600},
		{"etc/ssh/ssh_host_ed25519_key.pub", m.HostKey + " root@" + m.Name + "\n", 0o644},
		{"etc/ssh/sshd_config.d/10-dwk-test.conf", sshd, 0o644},
		{"root/.ssh/authorized_keys", authorizedKey + "\n", 0o600},
	}
	// os.Root keeps every write inside m.Dir, whatever symbolic links the
	// image holds.
	r, err := os.OpenRoot(m.Dir)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Chmod(".", 0o755); err != nil {
		return err
	}
	if err := r.MkdirAll("root/.ssh", 0o700); err != nil {
		return err
	}
	if err := r.Chmod("root/.ssh", 0o700); err != nil {
		return err
	}
	for _, f := range files {
		if err := r.MkdirAll(path.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := r.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := r.WriteFile(f.path, []byte(f.data), f.mode); err != nil {
			return err
		}
		if err := r.Chmod(f.path, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// hostsFile is the /etc/hosts of every machine: localhost, the host as
// "host" and every machine by name.
func hostsFile(b *bridge, names []string) string {
	var s strings.Builder
	s.WriteString("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")
	fmt.Fprintf(&s, "%s\thost\n", b.host())
	for i, n := range names {
		fmt.Fprintf(&s, "%s\t%s\n", b.address(i), n)
	}
	return s.String()
}
