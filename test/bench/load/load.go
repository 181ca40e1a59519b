// Package load drives a fixed number of concurrent callers for a fixed time
// and summarises throughput and latency. Benchmarks compare two targets by
// running them back to back in one process, so the ratio is what counts.
package load

import (
	"context"
	"math"
	"sort"
	"sync"
	"time"
)

// Result summarises one run.
type Result struct {
	Name     string        `json:"name"`
	Requests int           `json:"requests"`
	Errors   int           `json:"errors"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	RPS      float64       `json:"rps"`
	P50      time.Duration `json:"p50_ns"`
	P99      time.Duration `json:"p99_ns"`
	// FirstError is the first error seen, for the report.
	FirstError string `json:"first_error,omitempty"`
}

// Run calls op from concurrency goroutines until d has passed, and returns
// the summary. op gets the goroutine index.
func Run(ctx context.Context, name string, concurrency int, d time.Duration, op func(ctx context.Context, worker int) error) Result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu       sync.Mutex
		lat      []time.Duration
		errs     int
		firstErr string
		wg       sync.WaitGroup
	)
	start := time.Now()
	for i := range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			var localErrs int
			var localFirst string
			for ctx.Err() == nil {
				t0 := time.Now()
				err := op(ctx, i)
				if ctx.Err() != nil {
					break
				}
				if err != nil {
					localErrs++
					if localFirst == "" {
						localFirst = err.Error()
					}
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, local...)
			errs += localErrs
			if firstErr == "" {
				firstErr = localFirst
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return Result{
		Name:       name,
		Requests:   len(lat),
		Errors:     errs,
		Elapsed:    elapsed,
		RPS:        float64(len(lat)) / elapsed.Seconds(),
		P50:        Percentile(lat, 0.50),
		P99:        Percentile(lat, 0.99),
		FirstError: firstErr,
	}
}

// Percentile returns the q-quantile (0..1) of sorted durations.
func Percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
