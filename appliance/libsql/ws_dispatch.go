package libsql

import (
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// dispatch handles one validated request (reader only). Session-level
// requests are answered at once; stream requests are queued on their
// stream's worker, with stored SQL texts resolved now so that workers
// never touch the session. A returned error is a protocol error that ends
// the connection.
func (c *wsConn) dispatch(id int32, req *hrana.WSRequest) error {
	who := c.who
	lookup := func() (*wsStream, error) {
		s, ok := c.streams[*req.StreamID]
		if !ok {
			return nil, hrana.Protocolf("Stream %d not found", *req.StreamID)
		}
		return s, nil
	}
	resp := &hrana.WSResponse{StreamResponse: hrana.StreamResponse{Type: req.Type}}

	switch req.Type {
	case hrana.TypeOpenStream:
		sid := *req.StreamID
		if _, ok := c.streams[sid]; ok {
			return hrana.Protocolf("Stream %d already exists", sid)
		}
		s := c.startStream(sid)
		c.streams[sid] = s
		s.enqueue(func() {
			if who.access(c.ns.name) < permRead {
				s.openErr = hrana.Errorf(hrana.CodeForbidden, "Authorization forbidden: Current session doesn't have Read permission to namespace %s", c.ns.name)
			} else {
				s.st, s.openErr = openStream(c.ctx, c.ns, c.srv.slots)
			}
			c.respond(id, resp, s.openErr)
		})

	case hrana.TypeCloseStream:
		s, err := lookup()
		if err != nil {
			return err
		}
		delete(c.streams, s.id)
		if s.cursorID != nil {
			delete(c.cursors, *s.cursorID)
		}
		s.enqueue(func() {
			s.cleanup()
			s.exit = true
			c.respond(id, resp, nil)
		})

	case hrana.TypeExecute, hrana.TypeBatch, hrana.TypeSequence, hrana.TypeDescribe, hrana.TypeGetAutocommit:
		s, err := lookup()
		if err != nil {
			return err
		}
		sreq, err := c.resolveStored(req)
		if err != nil {
			return err
		}
		s.enqueue(func() {
			out, err := s.run(func(st *stream) (*hrana.WSResponse, error) {
				r, err := st.handle(c.env(c.ctx, who), sreq)
				if err != nil {
					return nil, err
				}
				return &hrana.WSResponse{StreamResponse: *r}, nil
			})
			c.respond(id, out, err)
		})

	case hrana.TypeStoreSQL:
		if err := storeSQL(c.sqls, *req.SQLID, *req.SQL, wsMaxStoredSQLs, 0); err != nil {
			if _, ok := err.(*hrana.ProtocolError); ok {
				return err
			}
			c.respond(id, nil, err)
			return nil
		}
		c.respond(id, resp, nil)

	case hrana.TypeCloseSQL:
		delete(c.sqls, *req.SQLID)
		c.respond(id, resp, nil)

	case hrana.TypeOpenCursor:
		s, err := lookup()
		if err != nil {
			return err
		}
		if s.cursorID != nil {
			return hrana.Protocolf("Stream %d already has an open cursor", s.id)
		}
		cid := *req.CursorID
		if _, ok := c.cursors[cid]; ok {
			return hrana.Protocolf("Cursor %d already exists", cid)
		}
		batch, err := c.resolveBatch(req.Batch)
		if err != nil {
			return err
		}
		c.cursors[cid] = s.id
		s.cursorID = &cid
		s.enqueue(func() {
			c.respond(id, resp, s.openCursor(c.env(c.ctx, who), batch))
		})

	case hrana.TypeCloseCursor:
		cid := *req.CursorID
		sid, ok := c.cursors[cid]
		if !ok {
			return hrana.Protocolf("Cursor %d not found", cid)
		}
		delete(c.cursors, cid)
		s := c.streams[sid]
		s.cursorID = nil
		s.enqueue(func() {
			s.stopCursor()
			c.respond(id, resp, nil)
		})

	case hrana.TypeFetchCursor:
		cid := *req.CursorID
		sid, ok := c.cursors[cid]
		if !ok {
			return hrana.Protocolf("Cursor %d not found", cid)
		}
		s := c.streams[sid]
		maxCount := *req.MaxCount
		s.enqueue(func() {
			entries, done, err := s.fetch(maxCount, c.srv.cfg.MaxResponseSize/8)
			c.respond(id, &hrana.WSResponse{StreamResponse: hrana.StreamResponse{Type: req.Type}, Entries: entries, Done: done}, err)
		})

	default:
		return hrana.Protocolf("Request type %q not recognized", req.Type)
	}
	return nil
}

// resolveStored turns a stream request's sql_id references into texts.
func (c *wsConn) resolveStored(req *hrana.WSRequest) (*hrana.StreamRequest, error) {
	out := &hrana.StreamRequest{Type: req.Type, Stmt: req.Stmt, Batch: req.Batch, SQL: req.SQL, SQLID: req.SQLID}
	switch req.Type {
	case hrana.TypeExecute:
		stmt, err := c.resolveStmt(req.Stmt)
		if err != nil {
			return nil, err
		}
		out.Stmt = stmt
	case hrana.TypeBatch:
		b, err := c.resolveBatch(req.Batch)
		if err != nil {
			return nil, err
		}
		out.Batch = b
	case hrana.TypeSequence, hrana.TypeDescribe:
		sql, err := hrana.ResolveSQL(req.SQL, req.SQLID, c.sqls)
		if err != nil {
			return nil, err
		}
		out.SQL, out.SQLID = &sql, nil
	}
	return out, nil
}

func (c *wsConn) resolveStmt(s *hrana.Stmt) (*hrana.Stmt, error) {
	sql, err := hrana.ResolveSQL(s.SQL, s.SQLID, c.sqls)
	if err != nil {
		return nil, err
	}
	cp := *s
	cp.SQL, cp.SQLID = &sql, nil
	return &cp, nil
}

func (c *wsConn) resolveBatch(b *hrana.Batch) (*hrana.Batch, error) {
	cp := &hrana.Batch{Steps: make([]hrana.BatchStep, len(b.Steps))}
	for i := range b.Steps {
		stmt, err := c.resolveStmt(&b.Steps[i].Stmt)
		if err != nil {
			return nil, err
		}
		cp.Steps[i] = hrana.BatchStep{Condition: b.Steps[i].Condition, Stmt: *stmt}
	}
	return cp, nil
}
