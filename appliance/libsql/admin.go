package libsql

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// AdminHandler returns sqld's admin API for namespaces:
//
//	POST   /v1/namespaces/{ns}/create      create (body: {} or sqld's fields)
//	DELETE /v1/namespaces/{ns}             delete
//	GET    /v1/namespaces/{ns}/config      read the configuration
//	POST   /v1/namespaces/{ns}/config      replace the configuration
//	POST   /v1/namespaces/{ns}/checkpoint  checkpoint the WAL
//	GET    /v1/namespaces                  list (dwk; sqld has no list)
//	GET    /metrics                        Prometheus metrics (dwk)
//
// With an admin key configured every call needs "Authorization: Basic
// <key>" (sqld's form) or "Bearer <key>".
func (s *Server) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("Welcome to the dwk libsql admin API"))
	})
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.Handle("GET /metrics", s.metricsHandler())
	mux.HandleFunc("GET /v1/namespaces", s.adminList)
	mux.HandleFunc("POST /v1/namespaces/{ns}/create", s.adminCreate)
	mux.HandleFunc("DELETE /v1/namespaces/{ns}", s.adminDelete)
	mux.HandleFunc("GET /v1/namespaces/{ns}/config", s.adminGetConfig)
	mux.HandleFunc("POST /v1/namespaces/{ns}/config", s.adminPostConfig)
	mux.HandleFunc("POST /v1/namespaces/{ns}/checkpoint", s.adminCheckpoint)
	return s.adminAuth(mux)
}

// adminAuth checks the admin key in constant time.
func (s *Server) adminAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.AdminAuthKey != "" {
			scheme, key, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
			ok := (strings.EqualFold(scheme, "basic") || strings.EqualFold(scheme, "bearer")) &&
				subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.cfg.AdminAuthKey)) == 1
			if !ok {
				writeJSON(w, http.StatusUnauthorized, errorBody(hrana.Errorf(hrana.CodeAuthHeaderInvalid,
					"Unauthorized: the admin API needs the header `Authorization: Basic <admin auth key>`")))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// adminError writes a namespace error with sqld's status codes.
func (s *Server) adminError(w http.ResponseWriter, r *http.Request, err error) {
	status := http.StatusInternalServerError
	code := hrana.CodeInternal
	switch {
	case errors.Is(err, errNamespaceNotFound):
		status, code = http.StatusNotFound, hrana.CodeNamespaceNotFound
	case errors.Is(err, errNamespaceExists), errors.Is(err, errDeleteDefault), errors.Is(err, errNamespacesDisabled), errors.Is(err, errInvalidNamespaceName):
		status, code = http.StatusBadRequest, hrana.CodeInvalidNamespace
	case errors.Is(err, errCheckpointBusy):
		status, code = http.StatusServiceUnavailable, hrana.CodeTransactionBusy
	case errors.Is(err, errBadAdminRequest):
		status, code = http.StatusBadRequest, hrana.CodeProtocol
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		status, code = http.StatusRequestEntityTooLarge, hrana.CodeBodyTooLarge
	}
	if status >= 500 {
		s.log.Error("libsql admin request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeJSON(w, status, errorBody(&hrana.Error{Code: code, Message: err.Error()}))
}

// Admin request errors (400).
var (
	errBadAdminRequest      = errors.New("bad request")
	errInvalidNamespaceName = errors.New("invalid namespace")
)

// adminNamespace validates the {ns} path value.
func (s *Server) adminNamespace(r *http.Request) (string, error) {
	name := r.PathValue("ns")
	if err := ValidateNamespace(name); err != nil {
		return "", fmt.Errorf("%w: %v", errInvalidNamespaceName, err)
	}
	return name, nil
}

// decodeAdminBody decodes an optional JSON body into dst, ignoring unknown
// fields as sqld does. An empty body means {}.
func (s *Server) decodeAdminBody(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodySize))
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(body)) == "" {
		return nil
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("%w: body is not a valid JSON object: %v", errBadAdminRequest, err)
	}
	return nil
}

func (s *Server) adminList(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, struct {
		Namespaces []string `json:"namespaces"`
	}{s.nss.list()})
}

func (s *Server) adminCreate(w http.ResponseWriter, r *http.Request) {
	name, err := s.adminNamespace(r)
	if err == nil && s.cfg.DisableNamespaces {
		err = errNamespacesDisabled
	}
	var req createRequest
	if err == nil {
		err = s.decodeAdminBody(w, r, &req)
	}
	if err == nil {
		err = req.check()
	}
	if err == nil {
		err = s.nss.create(name, req.nsConfig)
	}
	if err != nil {
		s.adminError(w, r, err)
		return
	}
	s.log.Info("libsql namespace created", "namespace", name)
	w.WriteHeader(http.StatusOK)
}

// createRequest is the body of a create call: sqld's fields. Unknown
// fields are ignored; known sqld features dwk lacks are refused rather than
// silently dropped.
type createRequest struct {
	nsConfig
	DumpURL          *string `json:"dump_url"`
	SharedSchema     bool    `json:"shared_schema"`
	SharedSchemaName *string `json:"shared_schema_name"`
}

func (c *createRequest) check() error {
	switch {
	case c.DumpURL != nil:
		return fmt.Errorf("%w: dump_url is not supported by dwk libsql; create the namespace, then load the dump with a client", errBadAdminRequest)
	case c.SharedSchema || c.SharedSchemaName != nil:
		return fmt.Errorf("%w: shared schemas are not supported by dwk libsql", errBadAdminRequest)
	}
	if _, err := c.parseKeys(); err != nil {
		return fmt.Errorf("%w: %v", errBadAdminRequest, err)
	}
	return nil
}

// adminDeleteTimeout bounds how long a delete waits for open streams.
const adminDeleteTimeout = 10 * time.Second

func (s *Server) adminDelete(w http.ResponseWriter, r *http.Request) {
	name, err := s.adminNamespace(r)
	if err == nil && s.cfg.DisableNamespaces {
		err = errNamespacesDisabled
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), adminDeleteTimeout)
		err = s.nss.remove(ctx, name)
		cancel()
	}
	if err != nil {
		s.adminError(w, r, err)
		return
	}
	s.log.Info("libsql namespace deleted", "namespace", name)
	w.WriteHeader(http.StatusOK)
}

func (s *Server) adminGetConfig(w http.ResponseWriter, r *http.Request) {
	ns, err := s.adminLookup(r)
	if err != nil {
		s.adminError(w, r, err)
		return
	}
	cfg, _ := ns.config()
	writeJSON(w, http.StatusOK, cfg)
}

func (s *Server) adminPostConfig(w http.ResponseWriter, r *http.Request) {
	ns, err := s.adminLookup(r)
	var cfg nsConfig
	if err == nil {
		cfg, _ = ns.config()
		err = s.decodeAdminBody(w, r, &cfg)
	}
	if err == nil {
		if _, kerr := cfg.parseKeys(); kerr != nil {
			err = fmt.Errorf("%w: %v", errBadAdminRequest, kerr)
		}
	}
	if err == nil {
		err = ns.setConfig(cfg)
	}
	if err != nil {
		s.adminError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Server) adminCheckpoint(w http.ResponseWriter, r *http.Request) {
	ns, err := s.adminLookup(r)
	if err == nil {
		err = ns.checkpoint()
	}
	if err != nil {
		s.adminError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Server) adminLookup(r *http.Request) (*namespace, error) {
	name, err := s.adminNamespace(r)
	if err != nil {
		return nil, err
	}
	return s.nss.get(name)
}
