package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/test/wait"
)

// The test binary doubles as the supervised child: with SUPERVISOR_CHILD set
// it behaves as that mode says and exits, instead of running the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("SUPERVISOR_CHILD"); mode != "" {
		os.Exit(child(mode))
	}
	os.Exit(m.Run())
}

// child implements the child modes:
//
//	exit:N      exit with status N at once
//	fail-then:F fail (status 3) until the file F exists, then exit 0
//	serve:F     create F, then wait for SIGTERM and exit 0
//	stubborn:F  create F, then ignore SIGTERM
func child(mode string) int {
	kind, arg, _ := strings.Cut(mode, ":")
	switch kind {
	case "exit":
		n, _ := strconv.Atoi(arg)
		fmt.Println("child exiting with", n)
		return n
	case "fail-then":
		if _, err := os.Stat(arg); err == nil {
			fmt.Println("child done")
			return 0
		}
		fmt.Println("child failing")
		return 3
	case "serve", "stubborn":
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		os.WriteFile(arg, []byte("up"), 0o644)
		for {
			<-sigs
			if kind == "serve" {
				fmt.Println("child drained")
				return 0
			}
		}
	}
	return 99
}

// newFakeClock returns the clock of a test; testConfig makes its timers
// fire at once, since the tests check only which delays are asked for.
func newFakeClock() *clocktest.Fake { return clocktest.NewFake(time.Unix(1e9, 0)) }

// afterAtOnce is clk.After with the clock moved past every timer it sets.
func afterAtOnce(clk *clocktest.Fake, d time.Duration) <-chan time.Time {
	ch := clk.After(d)
	clk.Advance(d)
	return ch
}

// syncBuffer is a bytes.Buffer safe for the supervisor's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func testConfig(t *testing.T, mode string, out *syncBuffer, clk *clocktest.Fake) Config {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Command:    self,
		Env:        append(os.Environ(), "SUPERVISOR_CHILD="+mode),
		Output:     out,
		PIDFile:    filepath.Join(t.TempDir(), "dwk.pid"),
		Now:        clk.Now,
		After:      func(d time.Duration) <-chan time.Time { return afterAtOnce(clk, d) },
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond,
	}
}

func TestCleanExitIsNotRestarted(t *testing.T) {
	out, clk := &syncBuffer{}, newFakeClock()
	cfg := testConfig(t, "exit:0", out, clk)
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res, (Result{ExitCode: 0, Starts: 1}); got != want {
		t.Errorf("result = %+v, want %+v; output:\n%s", got, want, out)
	}
	if _, err := os.Stat(cfg.PIDFile); !os.IsNotExist(err) {
		t.Errorf("pid file left behind: %v", err)
	}
}

func TestFailedChildIsRestartedWithBackoff(t *testing.T) {
	out, clk := &syncBuffer{}, newFakeClock()
	done := filepath.Join(t.TempDir(), "done")
	cfg := testConfig(t, "fail-then:"+done, out, clk)
	// The child fails until "done" exists; create it after the fifth delay.
	cfg.After = func(d time.Duration) <-chan time.Time {
		if len(clk.Delays()) == 4 {
			os.WriteFile(done, nil, 0o644)
		}
		return afterAtOnce(clk, d)
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res, (Result{ExitCode: 0, Starts: 6}); got != want {
		t.Errorf("result = %+v, want %+v; output:\n%s", got, want, out)
	}
	want := []time.Duration{10, 20, 40, 40, 40}
	got := clk.Delays()
	if len(got) != len(want) {
		t.Fatalf("delays = %v, want %v ms", got, want)
	}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Errorf("delay %d = %v, want %v", i, got[i], want[i]*time.Millisecond)
		}
	}
	if n := strings.Count(out.String(), "child failed (exit status 3)"); n != 5 {
		t.Errorf("%d failures logged, want 5; output:\n%s", n, out)
	}
}

func TestBackoffResetsAfterALongRun(t *testing.T) {
	out, clk := &syncBuffer{}, newFakeClock()
	cfg := testConfig(t, "exit:1", out, clk)
	cfg.ResetAfter = time.Hour
	// Now is read when a child starts and when it exits: the first two
	// children run a second each, the third runs two hours.
	base := time.Unix(1e9, 0)
	script := []time.Duration{0, time.Second, time.Second, 2 * time.Second, 2 * time.Second, 2*time.Hour + 2*time.Second}
	var mu sync.Mutex
	cfg.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if len(script) == 0 {
			return base.Add(3 * time.Hour)
		}
		d := script[0]
		script = script[1:]
		return base.Add(d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.After = func(d time.Duration) <-chan time.Time {
		if len(clk.Delays()) == 2 {
			cancel()
		}
		return afterAtOnce(clk, d)
	}
	if _, err := Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	got := clk.Delays()
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 10 * time.Millisecond}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("delays = %v, want %v; output:\n%s", got, want, out)
	}
}

func TestStopForwardsSIGTERM(t *testing.T) {
	out, clk := &syncBuffer{}, newFakeClock()
	up := filepath.Join(t.TempDir(), "up")
	cfg := testConfig(t, "serve:"+up, out, clk)
	ctx, cancel := context.WithCancel(context.Background())
	type ran struct {
		res Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, err := Run(ctx, cfg)
		done <- ran{res, err}
	}()
	waitFile(t, up)
	pid, err := os.ReadFile(cfg.PIDFile)
	if err != nil || strings.TrimSpace(string(pid)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("pid file = %q, %v; want %d", pid, err, os.Getpid())
	}
	cancel()
	select {
	case r := <-done:
		if r.err != nil || r.res.ExitCode != 0 || r.res.Starts != 1 {
			t.Errorf("Run = %+v, %v; want exit 0 after one start; output:\n%s", r.res, r.err, out)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Run did not return after the stop request; output:\n%s", out)
	}
	if !strings.Contains(out.String(), "child drained") {
		t.Errorf("child did not see SIGTERM; output:\n%s", out)
	}
}

func TestStopKillsAStubbornChild(t *testing.T) {
	out, clk := &syncBuffer{}, newFakeClock()
	up := filepath.Join(t.TempDir(), "up")
	cfg := testConfig(t, "stubborn:"+up, out, clk)
	cfg.KillAfter = time.Second
	cfg.After = clk.After
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() {
		res, _ := Run(ctx, cfg)
		done <- res
	}()
	waitFile(t, up)
	cancel()
	wait.For(t, "the supervisor to wait KillAfter", func() bool { return len(clk.Timers()) == 1 })
	select {
	case <-done:
		t.Fatal("Run returned before KillAfter although the child ignores SIGTERM")
	case <-time.After(100 * time.Millisecond):
	}
	clk.Advance(cfg.KillAfter)
	select {
	case res := <-done:
		if want := 128 + int(syscall.SIGKILL); res.ExitCode != want {
			t.Errorf("exit code = %d, want %d", res.ExitCode, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after killing the child")
	}
}

func TestMissingCommand(t *testing.T) {
	if _, err := Run(context.Background(), Config{}); err != ErrNoCommand {
		t.Errorf("no command: %v, want ErrNoCommand", err)
	}
	res, err := Run(context.Background(), Config{Command: filepath.Join(t.TempDir(), "missing")})
	if err == nil || res.ExitCode != 1 {
		t.Errorf("missing program: %+v, %v; want an error and exit 1", res, err)
	}
}

// waitFile polls for path with a deadline.
func waitFile(t *testing.T, path string) {
	t.Helper()
	wait.Within(t, 30*time.Second, path+" to appear", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}
