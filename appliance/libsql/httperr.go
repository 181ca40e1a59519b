package libsql

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// writeJSON writes v with the exact content type Hrana clients check
// ("application/json", no parameters).
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body, _ = json.Marshal(errorBody(&hrana.Error{Code: hrana.CodeInternal, Message: "Internal Error: encode response: " + err.Error()}))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// httpErrorBody is the body of every error response. "error" is what sqld
// sends and libsql-client-go reads; "message" and "code" form the Hrana
// Error structure that @libsql/client reads.
type httpErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

func errorBody(e *hrana.Error) httpErrorBody {
	return httpErrorBody{Error: e.Message, Message: e.Message, Code: e.Code}
}

// writeError answers a failed request. Protocol errors are 400; Hrana
// errors get the status their code implies; anything else is a 500.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, he := classifyError(err)
	if status >= 500 {
		s.log.Error("libsql request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeJSON(w, status, errorBody(he))
}

func classifyError(err error) (int, *hrana.Error) {
	var pe *hrana.ProtocolError
	if errors.As(err, &pe) {
		return http.StatusBadRequest, &hrana.Error{Code: hrana.CodeProtocol, Message: pe.Message}
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge, hrana.Errorf(hrana.CodeBodyTooLarge, "Request body is larger than the server's limit of %d bytes (--max-body-size)", mbe.Limit)
	}
	var he *hrana.Error
	if !errors.As(err, &he) {
		return http.StatusInternalServerError, &hrana.Error{Code: hrana.CodeInternal, Message: "Internal Error: " + err.Error()}
	}
	switch he.Code {
	case hrana.CodeAuthHeaderMissing, hrana.CodeAuthHeaderInvalid, hrana.CodeAuthUnsupportedScheme,
		hrana.CodeAuthJWTMissing, hrana.CodeAuthJWTInvalid, hrana.CodeAuthJWTExpired,
		hrana.CodeAuthJWTImmature, hrana.CodeAuthHeaderMalformed, hrana.CodeAuthHeaderNotFound:
		return http.StatusUnauthorized, he
	case hrana.CodeForbidden:
		return http.StatusForbidden, he
	case hrana.CodeNamespaceNotFound:
		return http.StatusNotFound, he
	case hrana.CodeTooManyStreams:
		return http.StatusTooManyRequests, he
	case hrana.CodeBodyTooLarge:
		return http.StatusRequestEntityTooLarge, he
	case hrana.CodeShuttingDown:
		return http.StatusServiceUnavailable, he
	case hrana.CodeInternal:
		return http.StatusInternalServerError, he
	default:
		return http.StatusBadRequest, he
	}
}
