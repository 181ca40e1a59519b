package libsql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// sparePrefix starts the directory name of a spare namespace: an empty
// WAL database and default config made ahead of time, ready to be renamed
// into place. Like every directory starting with ".", spares left on disk
// are removed on load.
const sparePrefix = ".spare-"

// spares keeps up to want spare namespace directories under root, so that
// creating a namespace with the default config renames one into place
// instead of making its files (and waiting for their fsyncs) while the
// client waits. A creation that finds none makes its files as before.
type spares struct {
	root  string
	want  int
	build func(dir string) error

	ready chan string   // spare directories, ready to rename
	kick  chan struct{} // a spare was taken: make another
}

func newSpares(root string, want int, build func(dir string) error) *spares {
	return &spares{
		root: root, want: want, build: build,
		ready: make(chan string, want), kick: make(chan struct{}, 1),
	}
}

// take returns a spare directory, or "" when none is ready.
func (s *spares) take() string {
	if s == nil {
		return ""
	}
	select {
	case dir := <-s.ready:
		select {
		case s.kick <- struct{}{}:
		default:
		}
		return dir
	default:
		return ""
	}
}

// fill makes spares until want are ready, then waits to be kicked, until
// ctx ends. A failure is logged and retried after a pause: creations fall
// back to making their own files meanwhile.
func (s *spares) fill(ctx context.Context, logf func(msg string, args ...any)) {
	const pause = 5 * time.Second
	for {
		for len(s.ready) < s.want {
			dir := filepath.Join(s.root, sparePrefix+randomSuffix())
			err := os.Mkdir(dir, 0o700)
			if err == nil {
				err = s.build(dir)
			}
			if err != nil {
				os.RemoveAll(dir)
				logf("make a spare namespace; creations make their own until this works", "err", err)
				select {
				case <-ctx.Done():
					return
				case <-time.After(pause):
				}
				continue
			}
			s.ready <- dir
			if ctx.Err() != nil {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		}
	}
}

// drop removes the spares not taken (on close).
func (s *spares) drop() {
	for {
		select {
		case dir := <-s.ready:
			if strings.HasPrefix(filepath.Base(dir), sparePrefix) {
				os.RemoveAll(dir)
			}
		default:
			return
		}
	}
}

// groupSync runs sync on behalf of every caller that asks while one runs:
// a caller waits for the first sync that starts after it asked, so one
// fsync makes the renames of many concurrent creations durable.
type groupSync struct {
	sync func() error

	mu      sync.Mutex
	cond    *sync.Cond
	running bool
	started uint64 // syncs started
	done    uint64 // the last sync finished
	err     error  // its outcome
}

// Do returns once a sync that started after the call has finished, with
// that sync's error.
func (g *groupSync) Do() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cond == nil {
		g.cond = sync.NewCond(&g.mu)
	}
	want := g.started + 1
	for g.done < want {
		if g.running {
			g.cond.Wait()
			continue
		}
		g.running = true
		g.started++
		n := g.started
		g.mu.Unlock()
		err := g.sync()
		g.mu.Lock()
		g.running = false
		g.done, g.err = n, err
		g.cond.Broadcast()
	}
	if g.err != nil {
		return fmt.Errorf("sync %w", g.err)
	}
	return nil
}
