package r2test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func (s *suite) testConcurrentPuts(t *testing.T) {
	b, p := s.bucket(t)
	const writers, each = 8, 4
	shared := p + "shared"
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	etags := make(chan string, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				key := fmt.Sprintf("%sw%d-%d", p, w, i)
				body := []byte(key)
				if _, err := b.Put(t.Context(), key, bytes.NewReader(body), nil); err != nil {
					errs <- fmt.Errorf("Put(%q): %w", key, err)
				}
				o, err := b.Put(t.Context(), shared, bytes.NewReader(body), nil)
				if err != nil {
					errs <- fmt.Errorf("Put(%q): %w", shared, err)
					continue
				}
				etags <- o.ETag
			}
		})
	}
	wg.Wait()
	close(errs)
	close(etags)
	for err := range errs {
		t.Error(err)
	}
	var written []string
	for e := range etags {
		written = append(written, e)
	}
	if h := head(t, b, shared); !slices.Contains(written, h.ETag) {
		t.Errorf("Head(shared): ETag %q is none of the %d written", h.ETag, len(written))
	}
	page := list(t, b, worker.R2ListOptions{Prefix: p})
	if got, want := len(page.Objects), writers*each+1; got != want {
		t.Errorf("List: %d objects, want %d", got, want)
	}
}

// testConcurrentReadsDuringOverwrite checks that a reader always sees one
// whole body, never a mix of two writes or a missing object.
func (s *suite) testConcurrentReadsDuringOverwrite(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "k"
	bodies := [][]byte{bytes.Repeat([]byte("a"), 64<<10), bytes.Repeat([]byte("b"), 32<<10), bytes.Repeat([]byte("c"), 96<<10)}
	put(t, b, key, bodies[0], nil)
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	report := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	wg.Go(func() {
		defer close(done)
		for i := range 30 {
			if _, err := b.Put(t.Context(), key, bytes.NewReader(bodies[i%len(bodies)]), nil); err != nil {
				report(fmt.Errorf("Put: %w", err))
				return
			}
		}
	})
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				o, err := b.Get(t.Context(), key, nil)
				if err != nil {
					report(fmt.Errorf("Get: %w", err))
					return
				}
				got, err := io.ReadAll(o.Body)
				o.Body.Close()
				if err != nil {
					report(fmt.Errorf("read body: %w", err))
					return
				}
				if !slices.ContainsFunc(bodies, func(b []byte) bool { return bytes.Equal(b, got) }) {
					report(errors.New("Get returned a body that was never written"))
					return
				}
				if md5Hex(got) != o.ETag {
					report(fmt.Errorf("Get: body MD5 %s, ETag %s", md5Hex(got), o.ETag))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
