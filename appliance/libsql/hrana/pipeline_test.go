package hrana

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodePipelineRequest(t *testing.T) {
	tests := []struct {
		body    string
		version Version
		err     string
	}{
		{`{"baton":null,"requests":[{"type":"execute","stmt":{"sql":"SELECT 1","unknown":1}}],"extra":{}}`, V2, ""},
		{`{"requests":[]}`, V2, ""},
		{`{"baton":null}`, V2, "needs \"requests\""},
		{``, V2, "expected a JSON object"},
		{`[1]`, V2, "expected a JSON object"},
		{`{"requests":[]} trailing`, V2, "trailing data"},
		{`{"requests":[]} }`, V2, "trailing data"},
		{`{"requests":[{"type":"execute"}]}`, V2, "needs a \"stmt\""},
		{`{"requests":[{"type":"execute","stmt":{}}]}`, V2, "are required"},
		{`{"requests":[{"type":"execute","stmt":{"sql":"x","sql_id":1}}]}`, V2, "not both"},
		{`{"requests":[{"type":"execute","stmt":{"sql":"x","args":[{"type":"integer","value":1}]}}]}`, V2, "Cannot deserialize"},
		{`{"requests":[{"type":"execute","stmt":{"sql":"x","named_args":[{"name":"a"}]}}]}`, V2, "has no value"},
		{`{"requests":[{"type":"get_autocommit"}]}`, V2, "hrana3"},
		{`{"requests":[{"type":"get_autocommit"}]}`, V3, ""},
		{`{"requests":[{"type":"store_sql","sql_id":1}]}`, V2, "needs \"sql_id\" and \"sql\""},
		{`{"requests":[{"type":"store_sql","sql_id":2147483648,"sql":"x"}]}`, V2, "Cannot deserialize"},
		{`{"requests":[{"type":"close_sql"}]}`, V2, "needs \"sql_id\""},
		{`{"requests":[{"type":"sequence"}]}`, V2, "are required"},
		{`{"requests":[{"type":"explode"}]}`, V2, "not recognized"},
		{`{"requests":[{}]}`, V2, "type missing"},
		{`{"requests":[{"type":"batch","batch":{"steps":[{"stmt":{"sql":"x"},"condition":{"type":"ok","step":0}}]}}]}`, V2, "Invalid reference"},
	}
	for _, tt := range tests {
		_, err := DecodePipelineRequest([]byte(tt.body), tt.version)
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: unexpected %v", tt.body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: err %v, want %q", tt.body, err, tt.err)
		}
		if _, ok := err.(*ProtocolError); !ok {
			t.Errorf("%s: %T is not a *ProtocolError", tt.body, err)
		}
	}
}

func TestPipelineResponseJSON(t *testing.T) {
	baton := "b"
	resp := PipelineResponse{Baton: &baton, Results: []StreamResult{
		{Response: &StreamResponse{Type: TypeExecute, Execute: &StmtResult{}}},
		{Response: &StreamResponse{Type: TypeBatch, Batch: &BatchResult{StepResults: []*StmtResult{nil}, StepErrors: []*Error{{Message: "m", Code: "C"}}}}},
		{Response: &StreamResponse{Type: TypeGetAutocommit, IsAutocommit: false}},
		{Response: &StreamResponse{Type: TypeClose}},
		{Error: &Error{Message: "boom", Code: "X"}},
	}}
	data, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"baton":"b","base_url":null,"results":[` +
		`{"type":"ok","response":{"type":"execute","result":{"cols":[],"rows":[],"affected_row_count":0,"last_insert_rowid":null,"rows_read":0,"rows_written":0,"query_duration_ms":0}}},` +
		`{"type":"ok","response":{"type":"batch","result":{"step_results":[null],"step_errors":[{"message":"m","code":"C"}]}}},` +
		`{"type":"ok","response":{"type":"get_autocommit","is_autocommit":false}},` +
		`{"type":"ok","response":{"type":"close"}},` +
		`{"type":"error","error":{"message":"boom","code":"X"}}]}`
	if string(data) != want {
		t.Errorf("encode =\n%s\nwant\n%s", data, want)
	}
	var back PipelineResponse
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Results[1].Response.Batch.StepErrors[0].Code != "C" || back.Results[4].Error.Message != "boom" || back.Results[2].Response.IsAutocommit {
		t.Errorf("decode = %+v", back)
	}
}

func TestCursorEntryJSON(t *testing.T) {
	name := "a"
	entries := []CursorEntry{
		{Type: EntryStepBegin, Step: 1, Cols: []Col{{Name: &name}}},
		{Type: EntryRow, Row: []Value{Integer(1)}},
		{Type: EntryStepEnd, AffectedRowCount: 2, LastInsertRowID: SomeRowID(3)},
		{Type: EntryStepError, Step: 1, Error: &Error{Message: "x"}},
		{Type: EntryError, Error: &Error{Message: "y"}},
	}
	var lines []string
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	want := []string{
		`{"type":"step_begin","step":1,"cols":[{"name":"a","decltype":null}]}`,
		`{"type":"row","row":[{"type":"integer","value":"1"}]}`,
		`{"type":"step_end","affected_row_count":2,"last_insert_rowid":"3"}`,
		`{"type":"step_error","step":1,"error":{"message":"x"}}`,
		`{"type":"error","error":{"message":"y"}}`,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("entry %d = %s, want %s", i, lines[i], want[i])
		}
	}
}

func TestClientMsgValidate(t *testing.T) {
	tests := []struct {
		msg     string
		version Version
		err     string
	}{
		{`{"type":"hello","jwt":null}`, V1, ""},
		{`{"type":"request","request_id":1,"request":{"type":"open_stream","stream_id":0}}`, V1, ""},
		{`{"type":"request","request":{"type":"open_stream","stream_id":0}}`, V1, "request_id"},
		{`{"type":"request","request_id":1,"request":{"type":"execute","stmt":{"sql":"x"}}}`, V1, "stream_id"},
		{`{"type":"request","request_id":1,"request":{"type":"store_sql","sql_id":1,"sql":"x"}}`, V1, "hrana2"},
		{`{"type":"request","request_id":1,"request":{"type":"store_sql","sql_id":1,"sql":"x"}}`, V2, ""},
		{`{"type":"request","request_id":1,"request":{"type":"open_cursor","stream_id":1,"cursor_id":1,"batch":{"steps":[]}}}`, V2, "hrana3"},
		{`{"type":"request","request_id":1,"request":{"type":"open_cursor","stream_id":1,"cursor_id":1,"batch":{"steps":[]}}}`, V3, ""},
		{`{"type":"request","request_id":1,"request":{"type":"fetch_cursor","cursor_id":1}}`, V3, "max_count"},
		{`{"type":"bye"}`, V3, "not recognized"},
	}
	for _, tt := range tests {
		var m ClientMsg
		if err := json.Unmarshal([]byte(tt.msg), &m); err != nil {
			t.Fatal(err)
		}
		err := m.Validate(tt.version)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s (v%d): err %v, want %q", tt.msg, tt.version, err, tt.err)
		}
	}
}
