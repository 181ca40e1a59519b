package libsql

import (
	"errors"
	"net/http"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// resolve finds the namespace a user API request addresses and
// authenticates its caller, who must at least be allowed to read it.
func (s *Server) resolve(r *http.Request) (*namespace, *principal, error) {
	if s.closing.Load() {
		return nil, nil, hrana.Errorf(hrana.CodeShuttingDown, "The server is shutting down")
	}
	name, herr := namespaceFromRequest(r, s.cfg.DisableNamespaces)
	if herr != nil {
		return nil, nil, herr
	}
	ns, err := s.lookupNamespace(name)
	if err != nil {
		return nil, nil, err
	}
	_, keys := ns.config()
	who, herr := s.auth.authenticateHeader(r.Header.Get("Authorization"), keys)
	if herr != nil {
		return nil, nil, herr
	}
	if who.access(ns.name) < permRead {
		return nil, nil, hrana.Errorf(hrana.CodeForbidden, "Authorization forbidden: Current session doesn't have Read permission to namespace %s", ns.name)
	}
	return ns, who, nil
}

func (s *Server) lookupNamespace(name string) (*namespace, error) {
	ns, err := s.nss.get(name)
	if errors.Is(err, errNamespaceNotFound) {
		return nil, hrana.Errorf(hrana.CodeNamespaceNotFound, "Namespace `%s` doesn't exist", name)
	}
	return ns, err
}

// Limits on SQL texts stored on an HTTP stream with store_sql. sqld allows
// 50 texts of at most 5 kB; dwk allows longer texts.
const (
	maxStoredSQLs    = 50
	maxStoredSQLSize = 64 << 10
)

// handle runs one pipeline request on a stream whose mu the caller holds.
// A *hrana.Error return is the request's error result; any other error
// fails the whole pipeline.
func (st *stream) handle(env *execEnv, req *hrana.StreamRequest) (*hrana.StreamResponse, error) {
	resp := &hrana.StreamResponse{Type: req.Type}
	if req.Type == hrana.TypeClose {
		st.closeLocked()
		return resp, nil
	}
	if st.conn == nil {
		return nil, hrana.Protocolf("Stream for this baton was closed")
	}
	var err error
	switch req.Type {
	case hrana.TypeExecute:
		resp.Execute, err = st.execute(env, req.Stmt)
	case hrana.TypeBatch:
		resp.Batch, err = st.batch(env, req.Batch)
	case hrana.TypeSequence:
		var sql string
		if sql, err = hrana.ResolveSQL(req.SQL, req.SQLID, env.sqls); err == nil {
			err = st.sequence(env, sql)
		}
	case hrana.TypeDescribe:
		var sql string
		if sql, err = hrana.ResolveSQL(req.SQL, req.SQLID, env.sqls); err == nil {
			resp.Describe, err = st.describe(env, sql)
		}
	case hrana.TypeStoreSQL:
		err = storeSQL(st.sqlsMap(), *req.SQLID, *req.SQL, maxStoredSQLs, maxStoredSQLSize)
	case hrana.TypeCloseSQL:
		delete(st.sqlsMap(), *req.SQLID)
	case hrana.TypeGetAutocommit:
		resp.IsAutocommit = st.conn.Autocommit()
	default:
		return nil, hrana.Protocolf("StreamRequest type %q not recognized", req.Type)
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

func (st *stream) sqlsMap() map[int32]string {
	if st.sqls == nil {
		st.sqls = map[int32]string{}
	}
	return st.sqls
}

// storeSQL stores a text under id in sqls, within the given limits.
func storeSQL(sqls map[int32]string, id int32, sql string, maxCount, maxSize int) error {
	if _, ok := sqls[id]; ok {
		return hrana.Protocolf("SQL text %d already exists", id)
	}
	if len(sqls) >= maxCount {
		return hrana.Errorf(hrana.CodeSQLStoreTooMany, "The server already stores %d SQL texts, it cannot store more", len(sqls))
	}
	if maxSize > 0 && len(sql) > maxSize {
		return hrana.Errorf(hrana.CodeSQLStoreTooLarge, "The statement is too large to be stored: %d bytes, the limit is %d", len(sql), maxSize)
	}
	sqls[id] = sql
	return nil
}
