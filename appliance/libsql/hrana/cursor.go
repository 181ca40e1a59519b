package hrana

import (
	"encoding/json"
	"fmt"
)

// Cursor entry types.
const (
	EntryStepBegin = "step_begin"
	EntryStepEnd   = "step_end"
	EntryStepError = "step_error"
	EntryRow       = "row"
	EntryError     = "error"
)

// CursorEntry is one item of a cursor's output (Hrana 3). A sequence of
// entries carries the same information as a BatchResult:
//
//	step_begin  Step, Cols       a step starts
//	row         Row              a row of the current step
//	step_end    AffectedRowCount, LastInsertRowID
//	step_error  Step, Error      the step failed
//	error       Error            the whole batch failed (last entry)
type CursorEntry struct {
	Type             string
	Step             uint32
	Cols             []Col
	Row              []Value
	AffectedRowCount uint64
	LastInsertRowID  RowID
	Error            *Error
}

type wireStepBegin struct {
	Type string `json:"type"`
	Step uint32 `json:"step"`
	Cols []Col  `json:"cols"`
}

type wireStepEnd struct {
	Type             string `json:"type"`
	AffectedRowCount uint64 `json:"affected_row_count"`
	LastInsertRowID  RowID  `json:"last_insert_rowid"`
}

type wireStepError struct {
	Type  string `json:"type"`
	Step  uint32 `json:"step"`
	Error *Error `json:"error"`
}

type wireRow struct {
	Type string  `json:"type"`
	Row  []Value `json:"row"`
}

type wireError struct {
	Type  string `json:"type"`
	Error *Error `json:"error"`
}

// MarshalJSON encodes the entry in the shape its type prescribes.
func (e CursorEntry) MarshalJSON() ([]byte, error) {
	switch e.Type {
	case EntryStepBegin:
		cols := e.Cols
		if cols == nil {
			cols = []Col{}
		}
		return json.Marshal(wireStepBegin{e.Type, e.Step, cols})
	case EntryStepEnd:
		return json.Marshal(wireStepEnd{e.Type, e.AffectedRowCount, e.LastInsertRowID})
	case EntryStepError:
		return json.Marshal(wireStepError{e.Type, e.Step, e.Error})
	case EntryRow:
		row := e.Row
		if row == nil {
			row = []Value{}
		}
		return json.Marshal(wireRow{e.Type, row})
	case EntryError:
		return json.Marshal(wireError{e.Type, e.Error})
	}
	return nil, fmt.Errorf("hrana: unknown cursor entry type %q", e.Type)
}

// UnmarshalJSON decodes any entry type.
func (e *CursorEntry) UnmarshalJSON(data []byte) error {
	var w struct {
		Type             string  `json:"type"`
		Step             uint32  `json:"step"`
		Cols             []Col   `json:"cols"`
		Row              []Value `json:"row"`
		AffectedRowCount uint64  `json:"affected_row_count"`
		LastInsertRowID  RowID   `json:"last_insert_rowid"`
		Error            *Error  `json:"error"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	switch w.Type {
	case EntryStepBegin, EntryStepEnd, EntryStepError, EntryRow, EntryError:
	default:
		return fmt.Errorf("unknown cursor entry type %q", w.Type)
	}
	*e = CursorEntry(w)
	return nil
}
