package probe

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/dwk/fleet/appliance/fleet/marker"
)

// Check names, in the order the checks run.
const (
	CheckLibSQL       = "libsql"
	CheckLibSQLAdmin  = "libsql-admin"
	CheckMarker       = "marker"
	CheckFleet        = "fleet"
	CheckSchema       = "schema"
	CheckBucket       = "bucket"
	CheckBucketMarker = "bucket-marker"
	CheckClock        = "clock"
	CheckCAS          = "cas"
)

// Status is a check's outcome.
type Status string

// Check outcomes.
const (
	Passed  Status = "ok"
	Failed  Status = "FAILED"
	Skipped Status = "skipped"
)

// Result is one check's outcome.
type Result struct {
	// Check is the check's name.
	Check string
	// Status is its outcome.
	Status Status
	// Took is how long it ran.
	Took time.Duration
	// Detail says what was found (passed) or why it did not run
	// (skipped).
	Detail string
	// Err is the failure (Failed only).
	Err *Error
}

// Report is the outcome of Run.
type Report struct {
	// Results has one entry per check, in the order they ran.
	Results []Result
	// Marker is the coordination store's marker, when it could be read.
	Marker marker.Marker
	// LibSQLLatency is one round trip to libSQL; BucketLatency one HEAD of
	// the bucket; CASLatency one compare-and-set commit (diagnose only).
	LibSQLLatency, BucketLatency, CASLatency time.Duration
	// ClockSkew is the local clock minus the libSQL server's: positive
	// when the local clock is ahead.
	ClockSkew time.Duration
	// Took is how long all checks took.
	Took time.Duration
}

// Err returns the first failure, or nil when every check that ran passed.
func (r Report) Err() error {
	for _, res := range r.Results {
		if res.Err != nil {
			return res.Err
		}
	}
	return nil
}

// Failures returns every failure, in check order.
func (r Report) Failures() []*Error {
	var out []*Error
	for _, res := range r.Results {
		if res.Err != nil {
			out = append(out, res.Err)
		}
	}
	return out
}

// Result returns the result of check, if it ran or was skipped.
func (r Report) Result(check string) (Result, bool) {
	for _, res := range r.Results {
		if res.Check == check {
			return res, true
		}
	}
	return Result{}, false
}

// WriteTo prints the report as a table, one check per line, for `dwk
// diagnose`.
func (r Report) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	tw := tabwriter.NewWriter(cw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tRESULT\tTIME\tDETAIL")
	for _, res := range r.Results {
		detail := res.Detail
		if res.Err != nil {
			detail = res.Err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", res.Check, res.Status, round(res.Took), detail)
	}
	err := tw.Flush()
	return cw.n, errors.Join(err, cw.err)
}

// round shortens a duration for the table.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

// Write counts what reaches w and remembers the first error.
func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
