package bundle

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBuildCommand(t *testing.T) {
	dir := fixture(t, "command")
	var log bytes.Buffer
	b := mustBuild(t, Options{
		Dir:   dir,
		Entry: "dist/index.js",
		// gen-entry is in node_modules/.bin, which is first on PATH.
		Build: &Command{Command: "gen-entry dist/index.js && echo oops >&2"},
		Log:   &log,
	})
	if got, want := log.String(), "generated dist/index.js\noops\n"; got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
	vm := run(t, b, "")
	if got, want := evalJSON(t, vm, "__dwk_entry.default"), `{"built":"by gen-entry"}`; got != want {
		t.Errorf("exports = %s, want %s", got, want)
	}
	if !contains(b.Inputs, filepath.Join(dir, "dist", "index.js")) {
		t.Errorf("inputs = %q, want the generated entry", b.Inputs)
	}
}

func TestBuildCommandCwd(t *testing.T) {
	dir := fixture(t, "command")
	mustBuild(t, Options{
		Dir:   dir,
		Entry: "dist/index.js",
		Build: &Command{Command: "pwd > ../cwd.txt && gen-entry ../dist/index.js", Cwd: "sub"},
	})
	got, err := os.ReadFile(filepath.Join(dir, "cwd.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "sub") + "\n"; string(got) != want {
		t.Errorf("cwd = %q, want %q", got, want)
	}
}

func TestBuildCommandFailures(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		cmd     Command
		entry   string
		want    string // the error's start
		wantEnd string // and end
		wantIs  error
	}{
		{
			name:    "exit status and output",
			cmd:     Command{Command: "echo one; echo two >&2; exit 3"},
			want:    `build command "echo one; echo two >&2; exit 3" failed: exit status 3; last lines of its output:` + "\n",
			wantEnd: "\none\ntwo",
		},
		{
			name:    "only the last lines",
			cmd:     Command{Command: "seq 1 50; printf unterminated; exit 1"},
			want:    `build command "seq 1 50; printf unterminated; exit 1" failed: exit status 1; last lines of its output:` + "\n32\n33\n",
			wantEnd: "\n50\nunterminated",
		},
		{
			name: "timeout, children included",
			cmd:  Command{Command: "sleep 30 & sleep 30; wait", Timeout: 100 * time.Millisecond},
			want: `build command "sleep 30 & sleep 30; wait" did not finish within 100ms`,
		},
		{
			name:   "context cancelled",
			ctx:    cancelled,
			cmd:    Command{Command: "sleep 30"},
			want:   `build command "sleep 30": context canceled`,
			wantIs: context.Canceled,
		},
		{
			name:  "no entry afterwards",
			cmd:   Command{Command: "true"},
			entry: "dist/none.js",
			want:  "bundle: entry ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			entry := tt.entry
			if entry == "" {
				entry = "dist/index.js"
			}
			start := time.Now()
			_, err := Build(ctx, Options{Dir: fixture(t, "command"), Entry: entry, Build: &tt.cmd})
			if err == nil {
				t.Fatal("Build succeeded, want an error")
			}
			if got := err.Error(); !strings.HasPrefix(got, tt.want) || !strings.HasSuffix(got, tt.wantEnd) {
				t.Errorf("error = %q\nwant it to start %q and end %q", got, tt.want, tt.wantEnd)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error = %v, want it to wrap %v", err, tt.wantIs)
			}
			// Killing the process group ends even the backgrounded sleep.
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("Build took %v, want the command killed", d)
			}
		})
	}
}

func TestWithPath(t *testing.T) {
	tests := []struct {
		env  []string
		want string
	}{
		{[]string{"HOME=/h", "PATH=/usr/bin:/bin"}, "PATH=/p/.bin:/usr/bin:/bin"},
		{[]string{"HOME=/h"}, "PATH=/p/.bin"},
		{[]string{"PATH="}, "PATH=/p/.bin"},
	}
	for _, tt := range tests {
		got := withPath(tt.env, "/p/.bin")
		var paths []string
		for _, kv := range got {
			if strings.HasPrefix(kv, "PATH=") {
				paths = append(paths, kv)
			}
		}
		if len(paths) != 1 || paths[0] != tt.want {
			t.Errorf("withPath(%q) PATH = %q, want [%q]", tt.env, paths, tt.want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
