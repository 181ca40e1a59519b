package project

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long Watch waits after a change for more before it
// rebuilds: an editor's save is often several writes.
const debounce = 150 * time.Millisecond

// Watch rebuilds p whenever one of the files it was built from (outside
// node_modules), its wrangler file, or a build.watch_dir changes, and
// calls reload with the new build or the error that stopped it. It
// returns when ctx ends, or with an error when it cannot watch.
func Watch(ctx context.Context, p *Project, reload func(*Project, error)) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fw.Close()
	watched := map[string]bool{}
	add := func(cur *Project) {
		for _, d := range watchDirs(cur) {
			if !watched[d] {
				if err := fw.Add(d); err == nil {
					watched[d] = true
				}
			}
		}
	}
	add(p)
	opts := Options{Env: p.Wrangler.Env, Logger: p.JS.Logger, CPULimit: p.JS.CPULimit, Isolates: p.JS.Isolates, ObjectIsolates: p.JS.ObjectIsolates}
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-fw.Errors:
			return fmt.Errorf("watch: %w", err)
		case ev := <-fw.Events:
			if ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Remove|fsnotify.Rename) != 0 {
				timer = time.After(debounce)
			}
		case <-timer:
			timer = nil
			next, err := Load(ctx, p.Wrangler.ConfigPath, opts)
			if err == nil {
				add(next)
			}
			reload(next, err)
		}
	}
}

// watchDirs are the directories whose changes rebuild p.
func watchDirs(p *Project) []string {
	dirs := map[string]bool{filepath.Dir(p.Wrangler.ConfigPath): true}
	for _, d := range p.Wrangler.Build.WatchDirs {
		dirs[d] = true
	}
	if p.Bundle != nil {
		for _, in := range p.Bundle.Inputs {
			if !strings.Contains(in, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
				dirs[filepath.Dir(in)] = true
			}
		}
	}
	out := make([]string, 0, len(dirs))
	for d := range dirs {
		out = append(out, d)
	}
	return out
}
