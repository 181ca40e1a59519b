package hrana

import "encoding/json"

// Batch is a list of steps executed in order; a step whose condition is
// false is skipped.
type Batch struct {
	Steps []BatchStep `json:"steps"`
	// ReplicationIndex is accepted for compatibility and ignored.
	ReplicationIndex json.RawMessage `json:"replication_index,omitempty"`
}

// BatchStep is one statement of a batch and the condition that must hold
// for it to run (none: always run).
type BatchStep struct {
	Condition *BatchCond `json:"condition,omitempty"`
	Stmt      Stmt       `json:"stmt"`
}

// Validate checks every statement and condition of b. Conditions may only
// refer to earlier steps.
func (b *Batch) Validate(v Version) error {
	for i := range b.Steps {
		if err := b.Steps[i].Stmt.Validate(v); err != nil {
			return err
		}
		if c := b.Steps[i].Condition; c != nil {
			if err := c.Validate(i, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// BatchResult holds, for each step, either its result or its error; both
// are null for a skipped step.
type BatchResult struct {
	StepResults []*StmtResult `json:"step_results"`
	StepErrors  []*Error      `json:"step_errors"`
}

// MarshalJSON encodes r with empty arrays (never null).
func (r BatchResult) MarshalJSON() ([]byte, error) { return json.Marshal(batchOut(&r)) }
