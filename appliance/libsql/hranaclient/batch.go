package hranaclient

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Batch runs steps on a fresh stream and closes it, in exactly one HTTP
// request. Steps run in order; a step whose condition is false is skipped.
// Steps are not a transaction unless they contain BEGIN and COMMIT.
//
// The error is non-nil only when the batch as a whole failed (transport,
// auth, namespace, protocol); failed steps are reported in the result's
// StepErrors, which [StepError] turns into *Error. After a transport error
// wrapping ErrOutcomeUnknown the batch may have run.
func (c *Client) Batch(ctx context.Context, steps []hrana.BatchStep) (hrana.BatchResult, error) {
	reqs := []hrana.StreamRequest{
		{Type: hrana.TypeBatch, Batch: &hrana.Batch{Steps: nonNilSteps(steps)}},
		{Type: hrana.TypeClose},
	}
	resp, err := c.pipeline(ctx, "batch", c.base, nil, reqs)
	if err != nil {
		return hrana.BatchResult{}, err
	}
	return batchResult("batch", resp.Results[0], len(steps))
}

// Execute runs one statement on a fresh stream and closes it, in exactly
// one HTTP request. A statement the server rejects yields an *Error.
func (c *Client) Execute(ctx context.Context, stmt hrana.Stmt) (hrana.StmtResult, error) {
	reqs := []hrana.StreamRequest{{Type: hrana.TypeExecute, Stmt: &stmt}, {Type: hrana.TypeClose}}
	resp, err := c.pipeline(ctx, "execute", c.base, nil, reqs)
	if err != nil {
		return hrana.StmtResult{}, err
	}
	return executeResult("execute", resp.Results[0])
}

// StepError returns the error of step i of res as an *Error, or nil if the
// step succeeded, was skipped, or does not exist.
func StepError(res hrana.BatchResult, i int) *Error {
	if i < 0 || i >= len(res.StepErrors) || res.StepErrors[i] == nil {
		return nil
	}
	return resultError(fmt.Sprintf("batch step %d", i), res.StepErrors[i])
}

// StepRan reports whether step i of res ran and succeeded.
func StepRan(res hrana.BatchResult, i int) bool {
	return i >= 0 && i < len(res.StepResults) && res.StepResults[i] != nil
}

func batchResult(op string, r hrana.StreamResult, steps int) (hrana.BatchResult, error) {
	if r.Error != nil {
		return hrana.BatchResult{}, resultError(op, r.Error)
	}
	if r.Response == nil || r.Response.Batch == nil {
		return hrana.BatchResult{}, errMalformed(op, "no batch result")
	}
	res := *r.Response.Batch
	if len(res.StepResults) > steps || len(res.StepErrors) > steps {
		return hrana.BatchResult{}, errMalformed(op, fmt.Sprintf("results for more than %d steps", steps))
	}
	// Pad so that callers can index every step.
	for len(res.StepResults) < steps {
		res.StepResults = append(res.StepResults, nil)
	}
	for len(res.StepErrors) < steps {
		res.StepErrors = append(res.StepErrors, nil)
	}
	return res, nil
}

func executeResult(op string, r hrana.StreamResult) (hrana.StmtResult, error) {
	if r.Error != nil {
		return hrana.StmtResult{}, resultError(op, r.Error)
	}
	if r.Response == nil || r.Response.Execute == nil {
		return hrana.StmtResult{}, errMalformed(op, "no execute result")
	}
	return *r.Response.Execute, nil
}

func nonNilSteps(steps []hrana.BatchStep) []hrana.BatchStep {
	if steps == nil {
		return []hrana.BatchStep{}
	}
	return steps
}
