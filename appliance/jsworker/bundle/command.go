package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Command is wrangler's "build": a shell command that produces the entry
// (a framework's compile step, say) before bundling.
type Command struct {
	// Command runs with "sh -c". Empty means no build step.
	Command string
	// Cwd is the directory it runs in, relative to Options.Dir unless
	// absolute. Default: Options.Dir.
	Cwd string
	// Timeout bounds the command. Default: DefaultCommandTimeout.
	Timeout time.Duration
}

// DefaultCommandTimeout bounds a build command whose Timeout is zero.
const DefaultCommandTimeout = 5 * time.Minute

// commandTailLines is how many of its last output lines a failed build
// command's error quotes.
const commandTailLines = 20

// commandWaitDelay bounds how long a cancelled command's output is waited
// for once it has been killed.
const commandWaitDelay = 5 * time.Second

// runCommand runs the build command in its directory with
// Dir/node_modules/.bin first on PATH, so that a project's own tools
// (tsc, vite) are found as under "npm run". Its output goes to log and
// the last lines of it into the error if it fails.
func runCommand(ctx context.Context, dir string, c Command, log io.Writer) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cwd := c.Cwd
	if cwd == "" {
		cwd = dir
	} else if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(dir, cwd)
	}
	if log == nil {
		log = io.Discard
	}
	tail := &tailWriter{max: commandTailLines}
	out := io.MultiWriter(log, tail)

	cmd := exec.CommandContext(ctx, "sh", "-c", c.Command)
	cmd.Dir = cwd
	cmd.Env = withPath(os.Environ(), filepath.Join(dir, "node_modules", ".bin"))
	cmd.Stdout = out // one writer for both: exec shares one pipe
	cmd.Stderr = out
	cmd.WaitDelay = commandWaitDelay
	killGroup(cmd)

	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("build command %q did not finish within %v%s", c.Command, timeout, tail.quote())
	case ctx.Err() != nil:
		return fmt.Errorf("build command %q: %w", c.Command, ctx.Err())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("build command %q failed: %v%s", c.Command, exit, tail.quote())
	}
	return fmt.Errorf("build command %q in %s: %w", c.Command, cwd, err)
}

// withPath returns env with bin first on PATH.
func withPath(env []string, bin string) []string {
	out := make([]string, 0, len(env)+1)
	path := bin
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			if v != "" {
				path = bin + string(os.PathListSeparator) + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}

// tailWriter keeps the last max lines written to it.
type tailWriter struct {
	max   int
	lines [][]byte
	part  []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	data := append(w.part, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		w.lines = append(w.lines, append([]byte(nil), data[:i]...))
		if len(w.lines) > w.max {
			w.lines = w.lines[1:]
		}
		data = data[i+1:]
	}
	w.part = append([]byte(nil), data...)
	return len(p), nil
}

// quote returns the kept lines as the end of an error message, or "" when
// there was no output.
func (w *tailWriter) quote() string {
	lines := w.lines
	if len(w.part) > 0 {
		lines = append(lines, w.part)
		if len(lines) > w.max {
			lines = lines[1:]
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "; last lines of its output:\n" + string(bytes.Join(lines, []byte("\n")))
}
