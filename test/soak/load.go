package soak

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dwk/fleet/test/lbclient"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// LoadOptions shape the client load. Every loop is paced by a ticker, so
// the load stays the same whatever the fleet's speed, and stops when the
// stop channel closes.
type LoadOptions struct {
	// Counters is the number of counter objects incremented. Default: 16.
	Counters int
	// Incrementers is the number of increment loops, each at Every. Default: 4.
	Incrementers int
	// Every paces each increment and message loop. Default: 25ms.
	Every time.Duration
	// Rooms is the number of chat rooms. Default: 4.
	Rooms int
	// Sockets is the number of WebSocket clients. Default: 8.
	Sockets int
	// AlarmIn is how far ahead each alarm is set. Default: 2s.
	AlarmIn time.Duration
}

func (o *LoadOptions) applyDefaults() {
	if o.Counters == 0 {
		o.Counters = 16
	}
	if o.Incrementers == 0 {
		o.Incrementers = 4
	}
	if o.Every == 0 {
		o.Every = 25 * time.Millisecond
	}
	if o.Rooms == 0 {
		o.Rooms = 4
	}
	if o.Sockets == 0 {
		o.Sockets = 8
	}
	if o.AlarmIn == 0 {
		o.AlarmIn = 2 * time.Second
	}
}

// Load drives the fleet through its front doors and writes every outcome
// into a ledger.
type Load struct {
	doors *lbclient.Doors
	l     *Ledger
	o     LoadOptions
	seed  uint64

	// Received counts chat frames the WebSocket clients read.
	Received atomic.Int64
	// R2Lost counts acknowledged attachments that read back missing or
	// different.
	R2Lost atomic.Int64
	lostMu sync.Mutex
	lost   []string
}

// loop runs fn every period until stop closes.
func loop(stop <-chan struct{}, period time.Duration, fn func(i int)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		fn(i)
	}
}

// Run starts every load loop and returns when stop has closed and every
// loop has returned.
func (ld *Load) Run(stop <-chan struct{}) {
	o := ld.o
	var wg sync.WaitGroup
	spawn := func(fn func()) {
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	for w := range o.Incrementers {
		rng := rand.New(rand.NewPCG(ld.seed, uint64(w)))
		spawn(func() {
			loop(stop, o.Every, func(i int) {
				name := fmt.Sprintf("soak-c%d", rng.IntN(o.Counters))
				if i%10 == 9 {
					ld.read(name)
					return
				}
				ld.increment(name)
			})
		})
	}
	for w := range 2 {
		spawn(func() {
			loop(stop, 2*o.Every, func(i int) { ld.message(fmt.Sprintf("soak%d", (w+i)%o.Rooms), i) })
		})
	}
	spawn(func() { loop(stop, 200*time.Millisecond, ld.put) })
	spawn(func() { loop(stop, 200*time.Millisecond, ld.get) })
	spawn(func() { loop(stop, time.Second, ld.alarm) })
	for c := range o.Sockets {
		spawn(func() { ld.socket(stop, fmt.Sprintf("soak%d", c%o.Rooms), c) })
	}
	wg.Wait()
}

func (ld *Load) increment(name string) {
	start := time.Now()
	_, err := ld.doors.Do("POST", "/counter/"+name+"/increment", "", nil)
	ld.l.Increment(name, start, err)
}

func (ld *Load) read(name string) {
	start := time.Now()
	_, err := ld.doors.Do("GET", "/counter/"+name, "", nil)
	ld.l.record(OpRead, start, err)
}

func (ld *Load) message(room string, i int) {
	body, _ := json.Marshal(map[string]string{"user": "soak", "text": fmt.Sprintf("m%d", i)})
	start := time.Now()
	resp, err := ld.doors.Do("POST", "/chat/rooms/"+room+"/messages", "application/json", body)
	var m struct{ ID int64 }
	if err == nil {
		err = decode(resp, &m)
	}
	ld.l.record(OpMessage, start, err)
	if err == nil {
		ld.l.Message(m.ID)
	}
}

func (ld *Load) put(i int) {
	body := make([]byte, 1024+i%4096)
	for j := range body {
		body[j] = byte(i + j*7)
	}
	start := time.Now()
	resp, err := ld.doors.Do("POST", fmt.Sprintf("/chat/rooms/soakf/attachments?user=soak&name=f%d.bin", i), "application/octet-stream", body)
	var m struct {
		ID         int64
		Attachment struct{ URL string }
	}
	if err == nil {
		err = decode(resp, &m)
	}
	if err == nil && m.Attachment.URL == "" {
		err = errors.New("upload answered without an attachment URL")
	}
	ld.l.record(OpPut, start, err)
	if err == nil {
		ld.l.Message(m.ID)
		ld.l.Attachment(attachment{URL: m.Attachment.URL, Body: body})
	}
}

func (ld *Load) get(i int) {
	a, ok := ld.l.randomAttachment(i * 7919)
	if !ok {
		return
	}
	start := time.Now()
	resp, err := ld.doors.Do("GET", a.URL, "", nil)
	var re *lbclient.RequestError
	switch {
	case err == nil && !bytes.Equal(resp.Body, a.Body):
		ld.loseAttachment(a.URL + ": content differs")
	case errors.As(err, &re) && re.Status == 404:
		ld.loseAttachment(a.URL + ": 404")
	}
	ld.l.record(OpGet, start, err)
}

func (ld *Load) loseAttachment(what string) {
	ld.R2Lost.Add(1)
	ld.lostMu.Lock()
	defer ld.lostMu.Unlock()
	if len(ld.lost) < 10 {
		ld.lost = append(ld.lost, what)
	}
}

func (ld *Load) alarm(i int) {
	name := fmt.Sprintf("soak-a%d", i)
	start := time.Now()
	_, err := ld.doors.Do("POST", fmt.Sprintf("/counter/%s/alarm?in=%s", name, ld.o.AlarmIn), "", nil)
	ld.l.record(OpAlarm, start, err)
	if err == nil {
		ld.l.Alarm(name, start.Add(ld.o.AlarmIn))
	}
}

// socket keeps one WebSocket client in room, reconnecting whenever the
// connection closes (a drain or kill closes it), until stop closes.
func (ld *Load) socket(stop <-chan struct{}, room string, c int) {
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		u := strings.Replace(ld.doors.Pick(), "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=ws" + fmt.Sprint(c)
		start := time.Now()
		conn, resp, err := dialer.Dial(u, nil)
		if err != nil && lbclient.Refused(err) {
			continue // nothing was sent; a client tries another door
		}
		if err != nil && resp != nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			err = fmt.Errorf("%w: %s (member %s): %s", err, resp.Status, resp.Header.Get("X-Dwk-Member"), b)
		}
		ld.l.record(OpSocket, start, err)
		if err != nil {
			continue
		}
		done := make(chan struct{})
		go func() {
			select {
			case <-stop:
			case <-done:
			}
			conn.Close()
		}()
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				break
			}
			ld.Received.Add(1)
		}
		close(done)
	}
}

func decode(r lbclient.Response, v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("decode %.200q: %w", r.Body, err)
	}
	return nil
}
