package hrana

import (
	"encoding/json"
	"fmt"
)

// WebSocket subprotocols, in the server's order of preference. The
// protobuf variant ("hrana3-protobuf") is not implemented by dwk libsql.
var Subprotocols = []string{"hrana3", "hrana2", "hrana1"}

// SubprotocolVersion maps a negotiated subprotocol to its version; an
// empty subprotocol means Hrana 1.
func SubprotocolVersion(name string) (Version, bool) {
	switch name {
	case "hrana3":
		return V3, true
	case "hrana2":
		return V2, true
	case "hrana1", "":
		return V1, true
	}
	return 0, false
}

// WebSocket request types that have no HTTP counterpart.
const (
	TypeOpenStream  = "open_stream"
	TypeCloseStream = "close_stream"
	TypeOpenCursor  = "open_cursor"
	TypeCloseCursor = "close_cursor"
	TypeFetchCursor = "fetch_cursor"
)

// ClientMsg is a message from a WebSocket client: {"type":"hello","jwt":...}
// or {"type":"request","request_id":N,"request":{...}}.
type ClientMsg struct {
	Type      string     `json:"type"`
	JWT       *string    `json:"jwt,omitempty"`
	RequestID *int32     `json:"request_id,omitempty"`
	Request   *WSRequest `json:"request,omitempty"`
}

// Validate checks the message shape for version v.
func (m *ClientMsg) Validate(v Version) error {
	switch m.Type {
	case "hello":
		return nil
	case "request":
		if m.RequestID == nil {
			return Protocolf("request message needs a \"request_id\"")
		}
		if m.Request == nil {
			return Protocolf("request message needs a \"request\"")
		}
		return m.Request.Validate(v)
	case "":
		return Protocolf("ClientMsg type missing")
	}
	return Protocolf("ClientMsg type %q not recognized", m.Type)
}

// WSRequest is the payload of a WebSocket request message. Which fields are
// used depends on Type:
//
//	open_stream, close_stream, get_autocommit  StreamID
//	execute                                    StreamID, Stmt
//	batch                                      StreamID, Batch
//	sequence, describe                         StreamID, SQL or SQLID
//	store_sql                                  SQLID, SQL
//	close_sql                                  SQLID
//	open_cursor                                StreamID, CursorID, Batch
//	close_cursor                               CursorID
//	fetch_cursor                               CursorID, MaxCount
type WSRequest struct {
	Type     string  `json:"type"`
	StreamID *int32  `json:"stream_id,omitempty"`
	CursorID *int32  `json:"cursor_id,omitempty"`
	Stmt     *Stmt   `json:"stmt,omitempty"`
	Batch    *Batch  `json:"batch,omitempty"`
	SQL      *string `json:"sql,omitempty"`
	SQLID    *int32  `json:"sql_id,omitempty"`
	MaxCount *uint32 `json:"max_count,omitempty"`
}

// Validate checks that r has the fields its type needs and that version v
// knows the type.
func (r *WSRequest) Validate(v Version) error {
	needStream := func() error {
		if r.StreamID == nil {
			return Protocolf("%s request needs a \"stream_id\"", r.Type)
		}
		return nil
	}
	needCursor := func() error {
		if err := v.require(V3, "The `"+r.Type+"` request"); err != nil {
			return err
		}
		if r.CursorID == nil {
			return Protocolf("%s request needs a \"cursor_id\"", r.Type)
		}
		return nil
	}
	switch r.Type {
	case TypeOpenStream, TypeCloseStream:
		return needStream()
	case TypeExecute, TypeBatch, TypeSequence, TypeDescribe, TypeStoreSQL, TypeCloseSQL, TypeGetAutocommit:
		if r.Type != TypeStoreSQL && r.Type != TypeCloseSQL {
			if err := needStream(); err != nil {
				return err
			}
		}
		sr := StreamRequest{Type: r.Type, Stmt: r.Stmt, Batch: r.Batch, SQL: r.SQL, SQLID: r.SQLID}
		return sr.Validate(v)
	case TypeOpenCursor:
		if err := needCursor(); err != nil {
			return err
		}
		if err := needStream(); err != nil {
			return err
		}
		if r.Batch == nil {
			return Protocolf("open_cursor request needs a \"batch\"")
		}
		return r.Batch.Validate(v)
	case TypeCloseCursor:
		return needCursor()
	case TypeFetchCursor:
		if err := needCursor(); err != nil {
			return err
		}
		if r.MaxCount == nil {
			return Protocolf("fetch_cursor request needs \"max_count\"")
		}
		return nil
	case "":
		return Protocolf("Request type missing")
	}
	return Protocolf("Request type %q not recognized", r.Type)
}

// ServerMsg is a message to a WebSocket client: hello_ok, hello_error,
// response_ok or response_error.
type ServerMsg struct {
	Type      string
	RequestID int32
	Response  *WSResponse
	Error     *Error
}

// MarshalJSON encodes the message in the shape its type prescribes.
func (m ServerMsg) MarshalJSON() ([]byte, error) {
	switch m.Type {
	case "hello_ok":
		return []byte(`{"type":"hello_ok"}`), nil
	case "hello_error":
		return json.Marshal(struct {
			Type  string `json:"type"`
			Error *Error `json:"error"`
		}{m.Type, m.Error})
	case "response_ok":
		return json.Marshal(struct {
			Type      string      `json:"type"`
			RequestID int32       `json:"request_id"`
			Response  *WSResponse `json:"response"`
		}{m.Type, m.RequestID, m.Response})
	case "response_error":
		return json.Marshal(struct {
			Type      string `json:"type"`
			RequestID int32  `json:"request_id"`
			Error     *Error `json:"error"`
		}{m.Type, m.RequestID, m.Error})
	}
	return nil, fmt.Errorf("hrana: unknown server message type %q", m.Type)
}

// UnmarshalJSON decodes any server message.
func (m *ServerMsg) UnmarshalJSON(data []byte) error {
	var w struct {
		Type      string      `json:"type"`
		RequestID int32       `json:"request_id"`
		Response  *WSResponse `json:"response"`
		Error     *Error      `json:"error"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = ServerMsg(w)
	return nil
}

// WSResponse is the successful answer to a WSRequest; Type equals the
// request's type. Fetch carries fetch_cursor's entries and Done flag.
type WSResponse struct {
	StreamResponse
	Entries []CursorEntry
	Done    bool
}

// MarshalJSON encodes the response; fetch_cursor responses carry
// "entries" and "done".
func (r WSResponse) MarshalJSON() ([]byte, error) {
	if r.Type == TypeFetchCursor {
		entries := r.Entries
		if entries == nil {
			entries = []CursorEntry{}
		}
		return json.Marshal(struct {
			Type    string        `json:"type"`
			Entries []CursorEntry `json:"entries"`
			Done    bool          `json:"done"`
		}{r.Type, entries, r.Done})
	}
	return r.StreamResponse.MarshalJSON()
}

// UnmarshalJSON decodes any response type.
func (r *WSResponse) UnmarshalJSON(data []byte) error {
	var w struct {
		wireResponseIn
		Entries []CursorEntry `json:"entries"`
		Done    bool          `json:"done"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.Type == TypeFetchCursor {
		*r = WSResponse{StreamResponse: StreamResponse{Type: w.Type}, Entries: w.Entries, Done: w.Done}
		return nil
	}
	*r = WSResponse{}
	return r.StreamResponse.fromWire(&w.wireResponseIn)
}
