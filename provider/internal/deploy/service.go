package deploy

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// stopMargin is how much longer than drain.timeout a stop may take before
// the replica is killed.
const stopMargin = 15 * time.Second

// serviceManager runs a replica on a host.
type serviceManager interface {
	// start starts the replica from <install_dir>/current and its config. The
	// replica must not be running.
	start(ctx context.Context, h *Host) error
	// stop sends SIGTERM (the replica drains and exits 0) and returns when
	// it has exited, killing it after DrainTimeout+stopMargin. Stopping a
	// replica that does not run succeeds.
	stop(ctx context.Context, h *Host) error
	// remove stops the replica and deletes what the manager installed
	// outside the install directory.
	remove(ctx context.Context, h *Host) error
	// logs returns the last lines the replica logged, for diagnostics.
	logs(ctx context.Context, h *Host) string
}

// manager returns the service manager of a resolved service name.
func manager(service string) serviceManager {
	if service == ServiceSystemd {
		return systemd{}
	}
	return process{}
}

// DetectService resolves ServiceAuto: systemd when the host was booted
// with it (the test sd_booted(3) makes) and systemctl exists, else process.
func (d *Deployer) DetectService(ctx context.Context, h *Host) (string, error) {
	if h.Service == ServiceSystemd || h.Service == ServiceProcess {
		return h.Service, nil
	}
	out, err := h.Target.Run(ctx, "if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then echo systemd; else echo process; fi", nil)
	if err != nil {
		return "", fmt.Errorf("detect service manager: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// sudo prefixes a command with "sudo -n" unless the login user is root.
const sudo = `S=; [ "$(id -u)" = 0 ] || S="sudo -n"; `

// systemd runs the replica as a unit in /etc/systemd/system.
type systemd struct{}

// UnitFile renders the systemd unit of h: its program, run as its own
// system user in a sandbox (see sandbox.go).
func UnitFile(h *Host) string {
	stopTimeout := h.DrainTimeout + stopMargin
	p := h.program()
	return fmt.Sprintf(`# Installed by the dwk Terraform provider; changes are overwritten.
[Unit]
Description=dwk %[4]s %[1]s
Documentation=%[5]s
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
WorkingDirectory=%[8]s
ExecStart=%[2]s/current %[6]s %[7]s
KillSignal=SIGTERM
KillMode=mixed
TimeoutStopSec=%[3]d
Restart=on-failure
RestartSec=2
%[9]s
[Install]
WantedBy=multi-user.target
`, h.Member, h.InstallDir, int(stopTimeout.Seconds()), p.Kind, p.Doc, strings.Join(p.Command, " "), h.config(""), h.dataDir(), sandbox(h))
}

func unitPath(h *Host) string { return "/etc/systemd/system/" + h.Unit }

func (systemd) start(ctx context.Context, h *Host) error {
	cmd := sudo + prepareUser(h) + fmt.Sprintf(`
{ $S tee %[1]s >/dev/null && $S systemctl daemon-reload; } || exit 1
$S systemctl enable %[2]s >/dev/null 2>&1
$S systemctl reset-failed %[2]s >/dev/null 2>&1
$S systemctl start %[2]s`,
		quote(unitPath(h)), quote(h.Unit))
	if _, err := h.Target.Run(ctx, cmd, strings.NewReader(UnitFile(h))); err != nil {
		return fmt.Errorf("systemctl start %s: %w", h.Unit, err)
	}
	return nil
}

func (systemd) stop(ctx context.Context, h *Host) error {
	cmd := sudo + fmt.Sprintf(`if [ -e %s ]; then $S systemctl stop %s; fi`, quote(unitPath(h)), quote(h.Unit))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("systemctl stop %s: %w", h.Unit, err)
	}
	return nil
}

func (s systemd) remove(ctx context.Context, h *Host) error {
	cmd := sudo + fmt.Sprintf(`if [ -e %[1]s ]; then $S systemctl disable --now %[2]s >/dev/null 2>&1; $S rm -f %[1]s && $S systemctl daemon-reload; $S systemctl reset-failed %[2]s >/dev/null 2>&1; fi; %[3]s`,
		quote(unitPath(h)), quote(h.Unit), removeUser(h))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("remove unit %s: %w", h.Unit, err)
	}
	return nil
}

func (systemd) logs(ctx context.Context, h *Host) string {
	out, _ := h.Target.Run(ctx, sudo+fmt.Sprintf("$S journalctl -u %s -n 20 --no-pager 2>&1 | tail -n 20", quote(h.Unit)), nil)
	return string(out)
}

// process runs the replica under `dwk supervise`, detached with setsid and
// nohup, its pid in dwk.pid and its output in dwk.log.
type process struct{}

// alive is a shell function: is pid $1 running (a zombie is not)?
const alive = `alive() { kill -0 "$1" 2>/dev/null || return 1; if [ -r /proc/$1/status ] && grep -q '^State:[[:space:]]*Z' /proc/$1/status; then return 1; fi; return 0; }; `

func (process) start(ctx context.Context, h *Host) error {
	killAfter := h.DrainTimeout + stopMargin/2
	cmd := fmt.Sprintf(alive+`cd %[1]s || exit 1
rm -f dwk.pid
setsid nohup %[2]s supervise --pidfile %[3]s --log %[4]s --kill-after %[5]s -- %[6]s >/dev/null 2>&1 </dev/null &
i=0; while [ ! -s dwk.pid ]; do i=$((i+1)); if [ $i -gt 100 ]; then echo "dwk supervise did not write dwk.pid within 10s" >&2; tail -n 20 dwk.log >&2; exit 1; fi; sleep 0.1; done`,
		quote(h.InstallDir), h.q("current"), h.q("dwk.pid"), h.q("dwk.log"), killAfter, commandLine(h.program().Command, h.config("")))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("start dwk supervise: %w", err)
	}
	return nil
}

func (process) stop(ctx context.Context, h *Host) error {
	polls := int((h.DrainTimeout+stopMargin)/(100*time.Millisecond)) + 1
	cmd := fmt.Sprintf(alive+`pf=%[1]s
[ -s "$pf" ] || exit 0
pid=$(cat "$pf")
alive "$pid" || { rm -f "$pf"; exit 0; }
kill -TERM "$pid"
i=0
while alive "$pid"; do
  i=$((i+1))
  if [ $i -gt %[2]d ]; then echo "replica (pid $pid) still running after SIGTERM; killing it" >&2; kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"; break; fi
  sleep 0.1
done
rm -f "$pf"`, h.q("dwk.pid"), polls)
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("stop dwk supervise: %w", err)
	}
	return nil
}

func (p process) remove(ctx context.Context, h *Host) error { return p.stop(ctx, h) }

func (process) logs(ctx context.Context, h *Host) string {
	out, _ := h.Target.Run(ctx, fmt.Sprintf("tail -n 20 %s 2>/dev/null", h.q("dwk.log")), nil)
	return string(out)
}
