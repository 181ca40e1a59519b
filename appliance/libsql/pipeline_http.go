package libsql

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// handlePipeline serves POST /v2/pipeline and /v3/pipeline.
func (s *Server) handlePipeline(v hrana.Version) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		resp, err := s.pipeline(w, r, v)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, resp)
	}
}

func (s *Server) pipeline(w http.ResponseWriter, r *http.Request, v hrana.Version) (*hrana.PipelineResponse, error) {
	ns, who, err := s.resolve(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodySize))
	if err != nil {
		return nil, err
	}
	req, err := hrana.DecodePipelineRequest(body, v)
	if err != nil {
		return nil, err
	}
	e, err := s.acquireHTTPStream(r.Context(), ns, req.Baton)
	if err != nil {
		return nil, err
	}
	st := e.st
	st.mu.Lock()
	env := &execEnv{
		ctx:     r.Context(),
		who:     who,
		version: v,
		sqls:    st.sqls,
		timeout: s.cfg.StatementTimeout,
		budget:  newBudget(s.cfg.MaxResponseSize),
	}
	resp := &hrana.PipelineResponse{Results: make([]hrana.StreamResult, 0, len(req.Requests))}
	if st.conn == nil {
		err = errStreamClosed
	}
	for i := 0; err == nil && i < len(req.Requests); i++ {
		var out *hrana.StreamResponse
		out, err = st.handle(env, &req.Requests[i])
		env.sqls = st.sqls
		var he *hrana.Error
		switch {
		case err == nil:
			resp.Results = append(resp.Results, hrana.StreamResult{Response: out})
		case errors.As(err, &he):
			resp.Results = append(resp.Results, hrana.StreamResult{Error: he})
			err = nil
		}
	}
	if err != nil {
		// Like sqld, a request that fails as a whole closes its stream.
		st.closeLocked()
	}
	closed := st.conn == nil
	if !closed {
		baton := s.streams.baton(e)
		resp.Baton = &baton
	}
	st.mu.Unlock()
	s.streams.release(e, closed)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// acquireHTTPStream opens a new stream (nil baton) or acquires the
// baton's stream, which must belong to ns.
func (s *Server) acquireHTTPStream(ctx context.Context, ns *namespace, baton *string) (*httpEntry, error) {
	if baton == nil {
		st, err := openStream(ctx, ns, s.slots)
		if err != nil {
			return nil, err
		}
		return s.streams.add(st), nil
	}
	e, err := s.streams.acquire(ctx, *baton)
	if err != nil {
		return nil, err
	}
	if e.st.ns != ns {
		s.streams.release(e, false)
		return nil, hrana.Protocolf("The baton belongs to a stream of namespace %s, not %s", e.st.ns.name, ns.name)
	}
	return e, nil
}
