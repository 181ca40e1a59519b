package lapse

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// holders answers from a script of reads, the last repeated; the member's
// record is alive as recorded says.
type holders struct {
	mu       sync.Mutex
	reads    []string // "!" fails the read
	recorded bool
}

func (h *holders) Alive(context.Context, string) (bool, error) { return h.recorded, nil }

var _ Holders = (*holders)(nil)

func (h *holders) Holder(context.Context, string, string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.reads[0]
	if len(h.reads) > 1 {
		h.reads = h.reads[1:]
	}
	if r == "!" {
		return "", errors.New("store unreachable")
	}
	return r, nil
}

func TestWatch(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reads    []string
		live     bool
		recorded bool // the member's record, read uncached
		want     bool
	}{
		{"still held", []string{"m1"}, true, true, false},
		{"still held by a member whose record expired", []string{"m1"}, true, false, false},
		{"moved from a stalled holder", []string{"m1", "m2"}, true, false, true},
		{"moved from a draining holder", []string{"m1", "m2"}, true, true, false},
		{"lapsed", []string{""}, true, false, true},
		{"handed back by a live holder", []string{""}, true, true, false},
		{"placed, not taken yet by a live member", []string{""}, true, true, false},
		{"placed on a deposed or stalled member", []string{""}, true, false, true},
		{"placed, taken elsewhere, member live", []string{"m2"}, true, true, false},
		{"member record gone from the view", []string{"m1"}, false, true, true},
		{"reads fail", []string{"!"}, true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := New(Config{
				Holders: &holders{reads: tc.reads, recorded: tc.recorded},
				Live:    func(string) bool { return tc.live },
				Delay:   time.Millisecond, Interval: time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			fired := make(chan struct{})
			w.Watch(ctx, "C", "id", "m1", func() { close(fired) })
			var got bool
			select {
			case <-fired:
				got = true
			case <-time.After(200 * time.Millisecond):
			}
			if got != tc.want {
				t.Errorf("lapsed %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNewNeedsHoldersAndLive(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(Config{}) = %v, want ErrConfig", err)
	}
}
