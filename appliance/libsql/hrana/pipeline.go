package hrana

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// PipelineRequest is the body of POST /v2/pipeline and /v3/pipeline. A null
// Baton opens a new stream.
type PipelineRequest struct {
	Baton    *string         `json:"baton"`
	Requests []StreamRequest `json:"requests"`
}

// PipelineResponse answers a PipelineRequest with one result per request.
// A null Baton means the stream is closed.
type PipelineResponse struct {
	Baton   *string        `json:"baton"`
	BaseURL *string        `json:"base_url"`
	Results []StreamResult `json:"results"`
}

// wirePipelineOut and wirePipelineIn are a PipelineResponse as sent and
// as received: each result is encoded in the same pass as the body, and
// decoded with one more pass over its result only.
type wirePipelineOut struct {
	Baton   *string         `json:"baton"`
	BaseURL *string         `json:"base_url"`
	Results []wireResultOut `json:"results"`
}

type wirePipelineIn struct {
	Baton   *string        `json:"baton"`
	BaseURL *string        `json:"base_url"`
	Results []wireResultIn `json:"results"`
}

// MarshalJSON encodes r.
func (r PipelineResponse) MarshalJSON() ([]byte, error) {
	w := wirePipelineOut{Baton: r.Baton, BaseURL: r.BaseURL}
	if r.Results != nil {
		w.Results = make([]wireResultOut, len(r.Results))
	}
	for i := range r.Results {
		var err error
		if w.Results[i], err = r.Results[i].wire(); err != nil {
			return nil, err
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes r.
func (r *PipelineResponse) UnmarshalJSON(data []byte) error {
	var w wirePipelineIn
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = PipelineResponse{Baton: w.Baton, BaseURL: w.BaseURL}
	if w.Results != nil {
		r.Results = make([]StreamResult, len(w.Results))
	}
	for i := range w.Results {
		if err := r.Results[i].fromWire(&w.Results[i]); err != nil {
			return fmt.Errorf("results[%d]: %w", i, err)
		}
	}
	return nil
}

// CursorRequest is the body of POST /v3/cursor.
type CursorRequest struct {
	Baton *string `json:"baton"`
	Batch *Batch  `json:"batch"`
}

// CursorResponse is the first line of a /v3/cursor response; CursorEntry
// lines follow.
type CursorResponse struct {
	Baton   *string `json:"baton"`
	BaseURL *string `json:"base_url"`
}

// DecodePipelineRequest decodes and validates a pipeline body for version
// v. Malformed input yields a *ProtocolError.
func DecodePipelineRequest(body []byte, v Version) (*PipelineRequest, error) {
	var req PipelineRequest
	if err := decodeStrictTop(body, &req); err != nil {
		return nil, err
	}
	if req.Requests == nil {
		return nil, Protocolf("pipeline request needs \"requests\"")
	}
	for i := range req.Requests {
		if err := req.Requests[i].Validate(v); err != nil {
			return nil, err
		}
	}
	return &req, nil
}

// DecodeCursorRequest decodes and validates a cursor body (Hrana 3).
func DecodeCursorRequest(body []byte) (*CursorRequest, error) {
	var req CursorRequest
	if err := decodeStrictTop(body, &req); err != nil {
		return nil, err
	}
	if req.Batch == nil {
		return nil, Protocolf("cursor request needs a \"batch\"")
	}
	if err := req.Batch.Validate(V3); err != nil {
		return nil, err
	}
	return &req, nil
}

// decodeStrictTop decodes one JSON object and rejects trailing data,
// reporting failures as protocol errors.
func decodeStrictTop(body []byte, dst any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Protocolf("Cannot deserialize client message from JSON: expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(dst); err != nil {
		return Protocolf("Cannot deserialize client message from JSON: %v", err)
	}
	if rest := bytes.TrimSpace(trimmed[dec.InputOffset():]); len(rest) > 0 {
		return Protocolf("Cannot deserialize client message from JSON: trailing data after the object")
	}
	return nil
}
