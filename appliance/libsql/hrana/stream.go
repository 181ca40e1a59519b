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

// wireResponseOut is a StreamResponse as sent. Result holds the typed
// result itself, so one pass of the encoder writes the whole response.
type wireResponseOut struct {
	Type         string `json:"type"`
	Result       any    `json:"result,omitempty"`
	IsAutocommit *bool  `json:"is_autocommit,omitempty"`
}

// stmtResultOut and batchResultOut are StmtResult and BatchResult as
// sent: without their MarshalJSON methods, so the encoder writes them in
// the same pass as the response; stmtOut and batchOut give them the empty
// arrays those methods would.
type stmtResultOut StmtResult

type batchResultOut struct {
	StepResults []*stmtResultOut `json:"step_results"`
	StepErrors  []*Error         `json:"step_errors"`
}

func stmtOut(r *StmtResult) *stmtResultOut {
	if r == nil {
		return nil
	}
	p := stmtResultOut(*r)
	if p.Cols == nil {
		p.Cols = []Col{}
	}
	if p.Rows == nil {
		p.Rows = [][]Value{}
	}
	for i := range p.Rows {
		if p.Rows[i] == nil {
			p.Rows[i] = []Value{}
		}
	}
	return &p
}

func batchOut(r *BatchResult) *batchResultOut {
	if r == nil {
		return nil
	}
	p := &batchResultOut{StepResults: make([]*stmtResultOut, len(r.StepResults)), StepErrors: r.StepErrors}
	for i, s := range r.StepResults {
		p.StepResults[i] = stmtOut(s)
	}
	if p.StepErrors == nil {
		p.StepErrors = []*Error{}
	}
	return p
}

// wireResponseIn is a StreamResponse as received: Result is decoded by
// type once the type is known.
type wireResponseIn struct {
	Type         string          `json:"type"`
	Result       json.RawMessage `json:"result,omitempty"`
	IsAutocommit *bool           `json:"is_autocommit,omitempty"`
}

// wire is r as sent.
func (r *StreamResponse) wire() *wireResponseOut {
	w := &wireResponseOut{Type: r.Type}
	switch r.Type {
	case TypeExecute:
		w.Result = stmtOut(r.Execute)
	case TypeBatch:
		w.Result = batchOut(r.Batch)
	case TypeDescribe:
		w.Result = r.Describe
	case TypeGetAutocommit:
		w.IsAutocommit = &r.IsAutocommit
	}
	return w
}

// MarshalJSON encodes r as {"type":...,"result":...}.
func (r StreamResponse) MarshalJSON() ([]byte, error) {
	return json.Marshal(r.wire())
}

// UnmarshalJSON decodes a response, reading "result" by type.
func (r *StreamResponse) UnmarshalJSON(data []byte) error {
	var w wireResponseIn
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	return r.fromWire(&w)
}

// fromWire sets r from its received form, decoding the result by type.
func (r *StreamResponse) fromWire(w *wireResponseIn) error {
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

// wireResultOut and wireResultIn are a StreamResult as sent and as
// received.
type wireResultOut struct {
	Type     string           `json:"type"`
	Response *wireResponseOut `json:"response,omitempty"`
	Error    *Error           `json:"error,omitempty"`
}

type wireResultIn struct {
	Type     string          `json:"type"`
	Response *wireResponseIn `json:"response,omitempty"`
	Error    *Error          `json:"error,omitempty"`
}

// wire is r as sent.
func (r *StreamResult) wire() (wireResultOut, error) {
	if r.Error != nil {
		return wireResultOut{Type: "error", Error: r.Error}, nil
	}
	if r.Response == nil {
		return wireResultOut{}, fmt.Errorf("hrana: StreamResult with neither response nor error")
	}
	return wireResultOut{Type: "ok", Response: r.Response.wire()}, nil
}

// MarshalJSON encodes the tagged union.
func (r StreamResult) MarshalJSON() ([]byte, error) {
	w, err := r.wire()
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes the tagged union.
func (r *StreamResult) UnmarshalJSON(data []byte) error {
	var w wireResultIn
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	return r.fromWire(&w)
}

// fromWire sets r from its received form.
func (r *StreamResult) fromWire(w *wireResultIn) error {
	switch w.Type {
	case "ok":
		if w.Response == nil {
			return fmt.Errorf("ok result without response")
		}
		resp := new(StreamResponse)
		if err := resp.fromWire(w.Response); err != nil {
			return err
		}
		*r = StreamResult{Response: resp}
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
