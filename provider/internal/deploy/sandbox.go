package deploy

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
)

// A systemd unit runs its program as a system user of its own, in a
// sandbox: the file system is read-only to it but for its data directory,
// it has no capabilities (only CAP_NET_BIND_SERVICE when it binds a port
// below 1024), and its system calls, address families and kernel access
// are restricted. `systemd-analyze security` rates such a unit below 2.5.

// maxUserLen is the longest user name useradd accepts everywhere.
const maxUserLen = 32

var userUnsafe = regexp.MustCompile(`[^a-z0-9_-]`)

// ServiceUser is the system user a unit's program runs as: the unit's name
// without ".service", lower-cased, with any other character than a-z, 0-9,
// '_' and '-' made '-', at most 32 bytes (e.g. "dwk-prod" for
// "dwk-prod.service").
func ServiceUser(unit string) string {
	u := userUnsafe.ReplaceAllString(strings.ToLower(strings.TrimSuffix(unit, ".service")), "-")
	if u == "" || u[0] == '-' || (u[0] >= '0' && u[0] <= '9') {
		u = "dwk-" + u
	}
	if len(u) > maxUserLen {
		u = u[:maxUserLen]
	}
	return u
}

// Privileged reports whether any of addrs (host:port listen addresses)
// has a port below 1024, which the unit then needs CAP_NET_BIND_SERVICE
// for. A front door on 443 with domains also redirects from port 80.
func Privileged(addrs ...string) bool {
	for _, a := range addrs {
		_, port, err := net.SplitHostPort(a)
		if err != nil {
			continue
		}
		if p, err := strconv.Atoi(port); err == nil && p > 0 && p < 1024 {
			return true
		}
	}
	return false
}

// sandbox renders the [Service] lines that confine h's program.
func sandbox(h *Host) string {
	user := ServiceUser(h.Unit)
	data := h.dataDir()
	caps := ""
	privateUsers := "PrivateUsers=yes\n"
	if h.Privileged {
		caps = "CAP_NET_BIND_SERVICE"
		// A user namespace would keep the capability from applying to
		// the host's ports.
		privateUsers = ""
	}
	return fmt.Sprintf(`User=%[1]s
Group=%[1]s
Environment=HOME=%[2]s
ReadWritePaths=%[2]s
UMask=0077
CapabilityBoundingSet=%[3]s
AmbientCapabilities=%[3]s
NoNewPrivileges=yes
%[4]sProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
DevicePolicy=closed
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
RemoveIPC=yes
KeyringMode=private
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged
SystemCallErrorNumber=EPERM
LimitNOFILE=%[5]d
`, user, data, caps, privateUsers, h.program().noFile())
}

// prepareUser is the shell (run with $S, see sudo) that creates h's
// service user unless it exists and gives it what the program reads and
// writes: the data directory is the user's (created if missing, its
// contents made the user's, so that data an earlier install wrote as root
// stays readable); the config, TLS files and projects stay the deployer's
// and are made readable to the user's group only. The binaries stay as
// they are (world-readable, not writable).
func prepareUser(h *Host) string {
	user := ServiceUser(h.Unit)
	c := h.program().ConfigFile
	return fmt.Sprintf(`u=%[1]s
if ! id -u "$u" >/dev/null 2>&1; then
  command -v useradd >/dev/null 2>&1 || { echo "the host has no useradd to create the system user $u the unit runs as" >&2; exit 1; }
  $S useradd --system --user-group --no-create-home --home-dir %[2]s --shell /usr/sbin/nologin "$u" || exit 1
fi
$S mkdir -p %[2]s && $S chown -R "$u:$u" %[2]s || exit 1
for f in %[3]s %[4]s %[5]s %[6]s; do
  [ -e "$f" ] || continue
  $S chgrp -R "$u" "$f" && $S chmod -R g+rX "$f" || exit 1
done
`, quote(user), quote(h.dataDir()), h.q(c), h.q(c+".new"), h.q("pki"), h.q("projects"))
}

// removeUser is the shell (run with $S) that deletes h's service user,
// unless its data is kept (the files stay the user's).
func removeUser(h *Host) string {
	if h.KeepData {
		return "true"
	}
	return fmt.Sprintf(`if id -u %[1]s >/dev/null 2>&1; then $S userdel %[1]s || { echo "could not delete the system user %[1]s" >&2; exit 1; }; fi`, quote(ServiceUser(h.Unit)))
}
