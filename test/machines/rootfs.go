package machines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// EnvCache is the environment variable that names the root file system
// cache directory instead of DefaultCache.
const EnvCache = "DWK_MACHINES_CACHE"

// DefaultCache is where the root file system is cached unless EnvCache
// says otherwise.
const DefaultCache = "/var/cache/dwk-test/machines/bookworm"

// InstallHint says how to get the tools Boot needs.
const InstallHint = "apt-get install -y systemd-container debootstrap iproute2"

const (
	// suite is the Debian release the machines run.
	suite = "bookworm"
	// prepareVersion changes whenever prepare changes what it does, so
	// caches prepared the old way are rebuilt.
	prepareVersion = 1
	// buildTimeout bounds debootstrap and the steps after it.
	buildTimeout = 20 * time.Minute
	// lockTimeout bounds the wait for another process building the cache.
	lockTimeout = buildTimeout + 5*time.Minute
	// copyTimeout bounds copying the cache for one machine.
	copyTimeout = 5 * time.Minute
)

// packages are installed on top of debootstrap's minbase variant.
var packages = []string{"systemd", "systemd-sysv", "openssh-server", "dbus", "iproute2", "ca-certificates"}

// cacheDir is the root file system cache directory.
func cacheDir() string {
	if v := os.Getenv(EnvCache); v != "" {
		return filepath.Clean(v)
	}
	return DefaultCache
}

// stamp describes how the cache is built; a cache whose stamp file differs
// is rebuilt.
func stamp() string {
	return fmt.Sprintf("debootstrap --variant=minbase --include=%s %s\nprepare %d\n",
		strings.Join(packages, ","), suite, prepareVersion)
}

// lockedImage returns the cache directory, built and current, and holds
// the cache lock until unlock is called, so no other process rebuilds the
// cache while the caller copies it.
func lockedImage(t testing.TB) (dir string, unlock func()) {
	t.Helper()
	dir = cacheDir()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatalf("machines: root file system cache: %v", err)
	}
	lock, err := flock(dir+".lock", lockTimeout, func() {
		t.Logf("machines: waiting for another process building %s", dir)
	})
	if err != nil {
		t.Fatalf("machines: root file system cache: %v", err)
	}
	unlock = func() { lock.Close() }
	if current(dir) {
		return dir, unlock
	}
	t.Logf("machines: building the root file system in %s with debootstrap (a few minutes, once)", dir)
	start := time.Now()
	if err := build(dir); err != nil {
		unlock()
		t.Fatalf("machines: building the root file system: %v", err)
	}
	t.Logf("machines: built %s in %v", dir, time.Since(start).Round(time.Second))
	return dir, unlock
}

// flock opens path and takes an exclusive lock on it, waiting at most
// timeout; waiting is called once if the lock is held by someone else.
// Closing the file releases the lock.
func flock(path string, timeout time.Duration, waiting func()) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for said := false; ; {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("lock %s: still held by another process after %v", path, timeout)
		}
		if !said && waiting != nil {
			waiting()
			said = true
		}
		time.Sleep(time.Second)
	}
}

// current reports whether dir holds a root file system built as stamp
// says.
func current(dir string) bool {
	b, err := os.ReadFile(dir + ".stamp")
	if err != nil || string(b) != stamp() {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "usr/lib/systemd/systemd"))
	return err == nil && fi.Mode().IsRegular()
}

// build builds the root file system into a directory next to dir and
// renames it to dir, replacing what was there. The caller holds the lock.
func build(dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	// Leftovers of interrupted builds.
	old, _ := filepath.Glob(dir + ".build-*")
	for _, o := range old {
		os.RemoveAll(o)
	}
	for _, f := range []string{dir + ".stamp", dir + ".build.log"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// MkdirTemp makes it 0700; as a machine's / it must be searchable by
	// the services that run as other users.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := command(ctx, dir+".build.log", "debootstrap", "--variant=minbase",
		"--include="+strings.Join(packages, ","), suite, tmp); err != nil {
		return err
	}
	if err := prepare(ctx, tmp, dir+".build.log"); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, tmp+".old"); err != nil {
			return err
		}
		defer os.RemoveAll(tmp + ".old")
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	if err := os.WriteFile(dir+".stamp.tmp", []byte(stamp()), 0o644); err != nil {
		return err
	}
	return os.Rename(dir+".stamp.tmp", dir+".stamp")
}

// prepare makes what every machine shares: systemd-networkd enabled, no
// SSH host keys (each machine gets its own), no downloaded packages, an
// empty machine ID.
func prepare(ctx context.Context, root, logPath string) error {
	if err := command(ctx, logPath, "chroot", root, "systemctl", "enable", "systemd-networkd.service"); err != nil {
		return err
	}
	if err := command(ctx, logPath, "chroot", root, "apt-get", "clean"); err != nil {
		return err
	}
	keys, _ := filepath.Glob(filepath.Join(root, "etc/ssh/ssh_host_*"))
	for _, k := range keys {
		if err := os.Remove(k); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(root, "etc/machine-id"), nil, 0o444)
}

// command runs name with args, appending its output to the file logPath;
// on failure the error holds the tail of that output.
func command(ctx context.Context, logPath, name string, args ...string) error {
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(f, "\n$ %s %s\n", name, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "DEBIAN_FRONTEND=noninteractive",
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
	cmd.Stdout, cmd.Stderr = f, f
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w; the end of %s:\n%s", name, strings.Join(args, " "), err, logPath, tail(logPath, 30))
	}
	return nil
}

// copyTree copies the directory src to dst, which must not exist,
// keeping owners, modes, links and special files.
func copyTree(src, dst string) error {
	ctx, cancel := context.WithTimeout(context.Background(), copyTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "cp", "-a", "--reflink=auto", src, dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cp -a %s %s: %w: %s", src, dst, err, out)
	}
	return nil
}

// Warm builds the root file system cache unless it is current, as Boot
// would, so that a test binary may start the build (minutes, mostly
// waiting on the mirror) while its other tests run: a Boot meanwhile waits
// for it on the cache lock. It does nothing where Boot would skip or fail
// before building (not root, tools missing); Boot reports that.
func Warm() error {
	if os.Geteuid() != 0 {
		return nil
	}
	for _, tool := range []string{"debootstrap", "systemd-nspawn"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil
		}
	}
	dir := cacheDir()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	lock, err := flock(dir+".lock", lockTimeout, nil)
	if err != nil {
		return err
	}
	defer lock.Close()
	if current(dir) {
		return nil
	}
	return build(dir)
}
