package hrana

import (
	"encoding/json"
	"fmt"
)

// Stream request and response types, shared by Hrana over HTTP (pipeline
// requests) and, with a stream id added, by Hrana over WebSocket.
const (
	TypeClose         = "close"
	TypeExecute       = "execute"
	TypeBatch         = "batch"
	TypeSequence      = "sequence"
	TypeDescribe      = "describe"
	TypeStoreSQL      = "store_sql"
	TypeCloseSQL      = "close_sql"
	TypeGetAutocommit = "get_autocommit"
)

// StreamRequest is one request of an HTTP pipeline. Which fields are used
// depends on Type:
//
//	close                       -
//	execute                     Stmt
//	batch                       Batch
//	sequence, describe          SQL or SQLID
//	store_sql                   SQLID and SQL
//	close_sql                   SQLID
//	get_autocommit (Hrana 3)    -
type StreamRequest struct {
	Type  string  `json:"type"`
	Stmt  *Stmt   `json:"stmt,omitempty"`
	Batch *Batch  `json:"batch,omitempty"`
	SQL   *string `json:"sql,omitempty"`
	SQLID *int32  `json:"sql_id,omitempty"`
}

// Validate checks that r has the fields its type needs and that version v
// knows the type.
func (r *StreamRequest) Validate(v Version) error {
	switch r.Type {
	case TypeClose:
		return nil
	case TypeExecute:
		if r.Stmt == nil {
			return Protocolf("execute request needs a \"stmt\"")
		}
		return r.Stmt.Validate(v)
	case TypeBatch:
		if r.Batch == nil {
			return Protocolf("batch request needs a \"batch\"")
		}
		return r.Batch.Validate(v)
	case TypeSequence, TypeDescribe:
		if err := v.require(V2, "The `"+r.Type+"` request"); err != nil {
			return err
		}
		return validateSQLRef(r.SQL, r.SQLID, v)
	case TypeStoreSQL:
		if err := v.require(V2, "The `store_sql` request"); err != nil {
			return err
		}
		if r.SQLID == nil || r.SQL == nil {
			return Protocolf("store_sql request needs \"sql_id\" and \"sql\"")
		}
		return nil
	case TypeCloseSQL:
		if err := v.require(V2, "The `close_sql` request"); err != nil {
			return err
		}
		if r.SQLID == nil {
			return Protocolf("close_sql request needs \"sql_id\"")
		}
		return nil
	case TypeGetAutocommit:
		return v.require(V3, "The `get_autocommit` request")
	case "":
		return Protocolf("StreamRequest type missing")
	default:
		return Protocolf("StreamRequest type %q not recognized", r.Type)
	}
}

// StreamResponse is the successful answer to a StreamRequest; Type equals
// the request's type. Execute carries an execute result, Batch a batch
// result, Describe a describe result, IsAutocommit the get_autocommit
// answer; the other types carry nothing.
type StreamResponse struct {
	Type         string
	Execute      *StmtResult
	Batch        *BatchResult
	Describe     *DescribeResult
	IsAutocommit bool
}

type wireStreamResponse struct {
	Type         string          `json:"type"`
	Result       json.RawMessage `json:"result,omitempty"`
	IsAutocommit *bool           `json:"is_autocommit,omitempty"`
}

// MarshalJSON encodes r as {"type":...,"result":...}.
func (r StreamResponse) MarshalJSON() ([]byte, error) {
	w := wireStreamResponse{Type: r.Type}
	var result any
	switch r.Type {
	case TypeExecute:
		result = r.Execute
	case TypeBatch:
		result = r.Batch
	case TypeDescribe:
		result = r.Describe
	case TypeGetAutocommit:
		w.IsAutocommit = &r.IsAutocommit
	}
	if result != nil {
		raw, err := json.Marshal(result)
		if err != nil {
			return nil, fmt.Errorf("encode %s result: %w", r.Type, err)
		}
		w.Result = raw
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a response, reading "result" by type.
func (r *StreamResponse) UnmarshalJSON(data []byte) error {
	var w wireStreamResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = StreamResponse{Type: w.Type}
	var dst any
	switch w.Type {
	case TypeExecute:
		r.Execute = new(StmtResult)
		dst = r.Execute
	case TypeBatch:
		r.Batch = new(BatchResult)
		dst = r.Batch
	case TypeDescribe:
		r.Describe = new(DescribeResult)
		dst = r.Describe
	case TypeGetAutocommit:
		r.IsAutocommit = w.IsAutocommit != nil && *w.IsAutocommit
	}
	if dst != nil {
		if len(w.Result) == 0 {
			return fmt.Errorf("%s response without result", w.Type)
		}
		if err := json.Unmarshal(w.Result, dst); err != nil {
			return fmt.Errorf("%s result: %w", w.Type, err)
		}
	}
	return nil
}

// StreamResult is the outcome of one pipeline request: {"type":"ok",
// "response":...} or {"type":"error","error":...}. Exactly one field is set.
type StreamResult struct {
	Response *StreamResponse
	Error    *Error
}

type wireStreamResult struct {
	Type     string          `json:"type"`
	Response *StreamResponse `json:"response,omitempty"`
	Error    *Error          `json:"error,omitempty"`
}

// MarshalJSON encodes the tagged union.
func (r StreamResult) MarshalJSON() ([]byte, error) {
	if r.Error != nil {
		return json.Marshal(wireStreamResult{Type: "error", Error: r.Error})
	}
	if r.Response == nil {
		return nil, fmt.Errorf("hrana: StreamResult with neither response nor error")
	}
	return json.Marshal(wireStreamResult{Type: "ok", Response: r.Response})
}

// UnmarshalJSON decodes the tagged union.
func (r *StreamResult) UnmarshalJSON(data []byte) error {
	var w wireStreamResult
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	switch w.Type {
	case "ok":
		if w.Response == nil {
			return fmt.Errorf("ok result without response")
		}
		*r = StreamResult{Response: w.Response}
	case "error":
		if w.Error == nil {
			return fmt.Errorf("error result without error")
		}
		*r = StreamResult{Error: w.Error}
	default:
		return fmt.Errorf("unknown StreamResult type %q", w.Type)
	}
	return nil
}
