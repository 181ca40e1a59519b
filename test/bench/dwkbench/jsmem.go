package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// jsMem is the memory side of the js section.
type jsMem struct {
	Objects  int     `json:"objects"`
	JSObject float64 `json:"js_object_bytes"`
	GoObject float64 `json:"go_object_bytes"`
	Sockets  int     `json:"sockets"`
	Rooms    int     `json:"rooms"`
	// JSSockets and GoSockets are the RSS growth of all the sockets.
	JSSockets float64 `json:"js_sockets_bytes"`
	GoSockets float64 `json:"go_sockets_bytes"`
}

const (
	memObjects = 2000
	memRooms   = 1000
	memPerRoom = 10
)

// jsMemory measures, in a fresh dwk serve per side and measure, the RSS
// an idle object costs and what 10,000 hibernated WebSockets cost.
func jsMemory(ctx context.Context, o options, app string) (jsMem, error) {
	m := jsMem{Objects: memObjects, Sockets: memRooms * memPerRoom, Rooms: memRooms}
	var err error
	if m.GoObject, err = memPerObject(ctx, o, app, "/counter/mem-%d/increment"); err != nil {
		return m, err
	}
	if m.JSObject, err = memPerObject(ctx, o, app, "/js/idle/mem-%d"); err != nil {
		return m, err
	}
	if m.GoSockets, err = memSockets(ctx, o, app, "/chat/rooms/room-%d/ws?user=u%d"); err != nil {
		return m, err
	}
	if m.JSSockets, err = memSockets(ctx, o, app, "/js/rooms/room-%d/ws?user=u%d"); err != nil {
		return m, err
	}
	return m, nil
}

// withServe runs fn against a fresh dwk serve of the js section's config.
func withServe(ctx context.Context, o options, app, idle string, fn func(d *proc, w *watcher) error) error {
	dir, err := os.MkdirTemp("", "dwkbench-jsmem-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg, err := jsConfig(dir, app, idle)
	if err != nil {
		return err
	}
	d, err := startDWK(ctx, o.dwk, "serve", "--config", cfg)
	if err != nil {
		return err
	}
	defer d.stop()
	w := watchProcess(d.cmd.Process.Pid)
	defer w.stop()
	return fn(d, w)
}

// settle waits for a process's RSS to stop moving (or 5s), and returns it.
func settle(w *watcher) int64 {
	last := w.now().rss
	for range 10 {
		time.Sleep(500 * time.Millisecond)
		cur := w.now().rss
		if d := cur - last; d < 256<<10 && d > -256<<10 {
			return cur
		}
		last = cur
	}
	return last
}

// memPerObject creates memObjects objects with one POST each to path
// (with %d the object's number) and returns the RSS growth per object.
func memPerObject(ctx context.Context, o options, app, path string) (float64, error) {
	var per float64
	err := withServe(ctx, o, app, "10m", func(d *proc, w *watcher) error {
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
		create := func(from, n int) error {
			return parallel(ctx, n, func(ctx context.Context, i int) error {
				return do(ctx, client, http.MethodPost, d.url+fmt.Sprintf(path, from+i))
			})
		}
		if err := create(0, 100); err != nil { // warm: isolates, pools, caches
			return err
		}
		before := settle(w)
		if err := create(100, memObjects); err != nil {
			return err
		}
		after := settle(w)
		per = float64(after-before) / memObjects
		return nil
	})
	return per, err
}

// memSockets opens memRooms×memPerRoom WebSockets to path (room and user
// numbers) with objects.idle_timeout 1s, waits until the rooms have
// hibernated, and returns the RSS growth.
func memSockets(ctx context.Context, o options, app, path string) (float64, error) {
	var grew float64
	err := withServe(ctx, o, app, "1s", func(d *proc, w *watcher) error {
		base := "ws" + strings.TrimPrefix(d.url, "http")
		dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
		var conns []*websocket.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		open := func(room, user int) error {
			c, _, err := dialer.DialContext(ctx, base+fmt.Sprintf(path, room, user), nil)
			if err != nil {
				return fmt.Errorf("dial %s: %w", fmt.Sprintf(path, room, user), err)
			}
			conns = append(conns, c)
			go func() {
				for {
					if _, _, err := c.ReadMessage(); err != nil {
						return
					}
				}
			}()
			return nil
		}
		for k := range 20 { // warm
			if err := open(memRooms+k, k); err != nil {
				return err
			}
		}
		time.Sleep(2 * time.Second)
		before := settle(w)
		for r := range memRooms {
			for u := range memPerRoom {
				if err := open(r, u); err != nil {
					return err
				}
			}
		}
		time.Sleep(3 * time.Second) // idle_timeout 1s: every room hibernates
		after := settle(w)
		grew = float64(after - before)
		return nil
	})
	return grew, err
}
