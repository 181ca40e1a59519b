package hrana

// BatchCond is a batch step condition:
//
//	{"type":"ok","step":N}        step N ran and succeeded
//	{"type":"error","step":N}     step N ran and failed
//	{"type":"not","cond":C}       C is false
//	{"type":"and","conds":[...]}  all are true (true when empty)
//	{"type":"or","conds":[...]}   one is true (false when empty)
//	{"type":"is_autocommit"}      no explicit transaction is open (Hrana 3)
//
// "ok" and "error" are both false for a skipped step, as the specification
// says. (sqld evaluates "error" as "not ok", so it is also true for a
// skipped step; portable clients do not rely on either.)
type BatchCond struct {
	Type  string      `json:"type"`
	Step  *uint32     `json:"step,omitempty"`
	Cond  *BatchCond  `json:"cond,omitempty"`
	Conds []BatchCond `json:"conds,omitempty"`
}

// Condition constructors, for clients and tests.

// CondOK is true when step succeeded.
func CondOK(step uint32) *BatchCond { return &BatchCond{Type: "ok", Step: &step} }

// CondError is true when step failed.
func CondError(step uint32) *BatchCond { return &BatchCond{Type: "error", Step: &step} }

// CondNot negates c.
func CondNot(c *BatchCond) *BatchCond { return &BatchCond{Type: "not", Cond: c} }

// CondAnd is the conjunction of cs.
func CondAnd(cs ...BatchCond) *BatchCond { return &BatchCond{Type: "and", Conds: nonNil(cs)} }

// CondOr is the disjunction of cs.
func CondOr(cs ...BatchCond) *BatchCond { return &BatchCond{Type: "or", Conds: nonNil(cs)} }

// CondIsAutocommit is true outside explicit transactions.
func CondIsAutocommit() *BatchCond { return &BatchCond{Type: "is_autocommit"} }

func nonNil(cs []BatchCond) []BatchCond {
	if cs == nil {
		return []BatchCond{}
	}
	return cs
}

// Validate checks c for the step at index stepIndex: every referenced step
// must come before it, and the type tags must be known to version v.
func (c *BatchCond) Validate(stepIndex int, v Version) error {
	switch c.Type {
	case "ok", "error":
		if c.Step == nil {
			return Protocolf("batch condition %q needs a \"step\"", c.Type)
		}
		if int64(*c.Step) >= int64(stepIndex) {
			return Protocolf("Invalid reference to step in a batch condition: step %d refers to step %d", stepIndex, *c.Step)
		}
	case "not":
		if c.Cond == nil {
			return Protocolf("batch condition \"not\" needs a \"cond\"")
		}
		return c.Cond.Validate(stepIndex, v)
	case "and", "or":
		for i := range c.Conds {
			if err := c.Conds[i].Validate(stepIndex, v); err != nil {
				return err
			}
		}
	case "is_autocommit":
		return v.require(V3, "BatchCond of type `is_autocommit`")
	default:
		return Protocolf("BatchCond type %q not recognized", c.Type)
	}
	return nil
}

// Outcome is what happened to a batch step.
type Outcome uint8

// The outcomes of a batch step.
const (
	Skipped Outcome = iota
	Succeeded
	Failed
)

// Eval evaluates a validated condition against the outcomes of the steps
// run so far and the connection's autocommit state. A reference to a step
// beyond outcomes evaluates as a skipped step.
func (c *BatchCond) Eval(outcomes []Outcome, autocommit bool) bool {
	outcome := func() Outcome {
		if c.Step == nil || int64(*c.Step) >= int64(len(outcomes)) {
			return Skipped
		}
		return outcomes[*c.Step]
	}
	switch c.Type {
	case "ok":
		return outcome() == Succeeded
	case "error":
		return outcome() == Failed
	case "not":
		return c.Cond != nil && !c.Cond.Eval(outcomes, autocommit)
	case "and":
		for i := range c.Conds {
			if !c.Conds[i].Eval(outcomes, autocommit) {
				return false
			}
		}
		return true
	case "or":
		for i := range c.Conds {
			if c.Conds[i].Eval(outcomes, autocommit) {
				return true
			}
		}
		return false
	case "is_autocommit":
		return autocommit
	}
	return false
}
