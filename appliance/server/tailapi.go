package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/server/tail"
)

// TailError is the line GET /admin/tail?fleet=1 writes when a member's
// events cannot be had; the stream goes on with the others.
type TailError struct {
	Member string `json:"member"`
	Error  string `json:"error"`
}

// tailStream serves GET /admin/tail: the events of this replica's
// workers (package tail) as JSON lines, filtered by the query (see
// tail.ParseFilter), until the client goes or the replica drains. With
// fleet=1 it adds the events of every other member it knows now, read
// from their admin APIs with the same token.
func (s *Server) tailStream(a *app, token string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := tail.ParseFilter(r.URL.Query())
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		flusher, ok := w.(http.Flusher)
		if !ok {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "the admin listener cannot stream"})
			return
		}
		ctx := r.Context()
		sub := s.tail.Subscribe(f)
		defer sub.Close()
		peers := make(chan []byte, tail.Buffer)
		if r.URL.Query().Get("fleet") == "1" {
			if cf, ok := a.fleet.(*centralFleet); ok {
				for _, m := range cf.view.Members() {
					if m.ID != s.member {
						go s.tailPeer(ctx, m, token, f, peers)
					}
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		flusher.Flush()
		enc := json.NewEncoder(w)
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.drainReq:
				return
			case ev := <-sub.C:
				if enc.Encode(ev) != nil {
					return
				}
			case line := <-peers:
				if _, err := w.Write(line); err != nil {
					return
				}
			}
			flusher.Flush()
		}
	})
}

// tailPeer copies member m's event lines into out until ctx ends; when it
// cannot, it sends one TailError line.
func (s *Server) tailPeer(ctx context.Context, m membership.Member, token string, f tail.Filter, out chan<- []byte) {
	fail := func(err error) {
		b, _ := json.Marshal(TailError{Member: m.ID, Error: err.Error()})
		select {
		case out <- append(b, '\n'):
		case <-ctx.Done():
		}
	}
	base, client, err := s.peerAdmin(m, token)
	if err == nil && base == "" {
		err = fmt.Errorf("no admin listener")
	}
	if err != nil {
		fail(err)
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/admin/tail?"+f.Query().Encode(), nil)
	if err != nil {
		fail(err)
		return
	}
	req.Header.Set("Authorization", "Bearer "+client.Token)
	// A stream has no overall deadline: it lasts as long as the tail.
	stream := &http.Client{Transport: client.HTTP.Transport}
	resp, err := stream.Do(req)
	if err != nil {
		fail(err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fail(fmt.Errorf("GET /admin/tail: %s", resp.Status))
		return
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := append(append([]byte(nil), sc.Bytes()...), '\n')
		select {
		case out <- line:
		case <-ctx.Done():
			return
		}
	}
	if ctx.Err() == nil {
		err := sc.Err()
		if err == nil {
			err = fmt.Errorf("the stream ended")
		}
		fail(err)
	}
}
