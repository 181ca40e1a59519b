package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/dwk/fleet/appliance/process/supervisor"
)

func init() {
	Register(Command{Name: "supervise", Short: "run a dwk command and restart it when it fails (hosts without systemd)", Run: runSupervise})
}

// runSupervise implements
//
//	dwk supervise --pidfile P --log F [--kill-after D] -- serve --config C
//
// It runs this same binary with the arguments after "--", restarts it with
// backoff when it fails, does not restart it after a clean exit (a drained
// replica exits 0), and forwards SIGTERM/SIGINT to it. The Terraform
// provider starts it detached (setsid nohup … &) on hosts without systemd.
func runSupervise(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("supervise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pidFile := fs.String("pidfile", "", "write the supervisor's pid here while it runs")
	logPath := fs.String("log", "", "append the child's output and the supervisor's messages to this file (default: stderr)")
	killAfter := fs.Duration("kill-after", 0, "after forwarding SIGTERM, kill the child if it is still running after this long (0: wait)")
	minBackoff := fs.Duration("min-backoff", supervisor.DefaultMinBackoff, "first restart delay after a failure")
	maxBackoff := fs.Duration("max-backoff", supervisor.DefaultMaxBackoff, "longest restart delay")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dwk supervise [--pidfile P] [--log F] [--kill-after D] -- <dwk command and flags>\n\nExample: dwk supervise --pidfile /opt/dwk/dwk.pid --log /opt/dwk/dwk.log -- serve --config /opt/dwk/dwk.json")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "dwk supervise: find own binary:", err)
		return 1
	}
	out := stderr
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
		if err != nil {
			fmt.Fprintln(stderr, "dwk supervise:", err)
			return 1
		}
		defer f.Close()
		out = f
	}
	// SIGHUP is ignored: the supervisor outlives the session that started it.
	signal.Ignore(syscall.SIGHUP)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	res, err := supervisor.Run(ctx, supervisor.Config{
		Command: self, Args: fs.Args(), PIDFile: *pidFile, Output: out,
		KillAfter: *killAfter, MinBackoff: *minBackoff, MaxBackoff: *maxBackoff,
	})
	if err != nil {
		fmt.Fprintln(out, "dwk supervise:", err)
	}
	return res.ExitCode
}
