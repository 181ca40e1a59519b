package hranaclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Stream is an interactive Hrana stream: a server-side connection that
// keeps its state (an open transaction, stored SQL) between requests. Each
// call is one HTTP request carrying the baton the previous one returned.
// Calls are serialised; a Stream is safe for concurrent use but gains
// nothing from it.
//
// The first call opens the stream. The server closes a stream that stays
// idle longer than its limit (sqld and dwk libsql: 10 s), rolling back its
// transaction; so does a request that fails as a whole or whose response is
// lost. After that every call returns an error wrapping ErrStreamClosed.
// Close the stream when done.
type Stream struct {
	c *Client

	mu     sync.Mutex
	base   string
	baton  *string
	opened bool
	closed error // why the stream is closed; nil while usable
}

// Stream returns a new, not yet opened stream.
func (c *Client) Stream() *Stream { return &Stream{c: c, base: c.base} }

// Execute runs one statement on the stream.
func (s *Stream) Execute(ctx context.Context, stmt hrana.Stmt) (hrana.StmtResult, error) {
	res, err := s.Pipeline(ctx, []hrana.StreamRequest{{Type: hrana.TypeExecute, Stmt: &stmt}})
	if err != nil {
		return hrana.StmtResult{}, err
	}
	return executeResult("stream execute", res[0])
}

// Batch runs a batch on the stream; see Client.Batch for the result.
func (s *Stream) Batch(ctx context.Context, steps []hrana.BatchStep) (hrana.BatchResult, error) {
	res, err := s.Pipeline(ctx, []hrana.StreamRequest{{Type: hrana.TypeBatch, Batch: &hrana.Batch{Steps: nonNilSteps(steps)}}})
	if err != nil {
		return hrana.BatchResult{}, err
	}
	return batchResult("stream batch", res[0], len(steps))
}

// Sequence runs the statements of sql (separated by semicolons, without
// arguments) on the stream, stopping at the first error.
func (s *Stream) Sequence(ctx context.Context, sql string) error {
	res, err := s.Pipeline(ctx, []hrana.StreamRequest{{Type: hrana.TypeSequence, SQL: &sql}})
	if err != nil {
		return err
	}
	if res[0].Error != nil {
		return resultError("stream sequence", res[0].Error)
	}
	return nil
}

// Pipeline sends reqs in one HTTP request and returns one result per
// request; a request the server refused has its Error set. A "close"
// request among reqs closes the stream.
func (s *Stream) Pipeline(ctx context.Context, reqs []hrana.StreamRequest) ([]hrana.StreamResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed != nil {
		return nil, s.closed
	}
	resp, err := s.c.pipeline(ctx, "stream", s.base, s.baton, reqs)
	if err != nil {
		var terr *TransportError
		if !(errors.As(err, &terr) && !terr.Sent) {
			// The server may hold a newer baton than ours, or has
			// closed the stream after a failed request.
			s.closed = fmt.Errorf("%w (after: %v)", ErrStreamClosed, err)
		}
		return nil, err
	}
	s.opened = true
	s.baton = resp.Baton
	if resp.BaseURL != nil && *resp.BaseURL != "" {
		s.base = strings.TrimRight(*resp.BaseURL, "/")
	}
	if resp.Baton == nil {
		s.closed = ErrStreamClosed
	}
	return resp.Results, nil
}

// Close closes the stream, rolling back an open transaction. It is a no-op
// for a stream that was never opened or is already closed.
func (s *Stream) Close(ctx context.Context) error {
	s.mu.Lock()
	if !s.opened || s.closed != nil {
		s.closed = ErrStreamClosed
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	_, err := s.Pipeline(ctx, []hrana.StreamRequest{{Type: hrana.TypeClose}})
	s.mu.Lock()
	s.closed = ErrStreamClosed
	s.mu.Unlock()
	if err != nil && !errors.Is(err, ErrStreamClosed) {
		return fmt.Errorf("close stream: %w", err)
	}
	return nil
}
