package tail

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Filter chooses the events a subscriber gets: wrangler tail's filters.
type Filter struct {
	// Worker is the worker's name; "" for every worker.
	Worker string
	// Status keeps events whose outcome is "ok", or "error" (any other
	// outcome); empty keeps all.
	Status []string
	// Methods keeps requests with these methods; empty keeps all.
	Methods []string
	// Search keeps events whose URL or a log message holds it.
	Search string
	// SamplingRate is the share of matching events sent, above 0 and at
	// most 1; 0 means 1.
	SamplingRate float64
}

// ParseFilter reads a Filter from an /admin/tail query: worker, status
// and method (each repeatable or comma-separated), search and
// sampling_rate.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Worker: q.Get("worker"), Search: q.Get("search")}
	for _, s := range list(q["status"]) {
		if s != "ok" && s != "error" {
			return f, fmt.Errorf("status %q: give ok or error", s)
		}
		f.Status = append(f.Status, s)
	}
	for _, m := range list(q["method"]) {
		f.Methods = append(f.Methods, strings.ToUpper(m))
	}
	if s := q.Get("sampling_rate"); s != "" {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || r <= 0 || r > 1 {
			return f, fmt.Errorf("sampling_rate %q: give a number above 0 and at most 1", s)
		}
		f.SamplingRate = r
	}
	return f, nil
}

func list(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// Query is f as ParseFilter reads it.
func (f Filter) Query() url.Values {
	q := url.Values{}
	if f.Worker != "" {
		q.Set("worker", f.Worker)
	}
	if len(f.Status) > 0 {
		q.Set("status", strings.Join(f.Status, ","))
	}
	if len(f.Methods) > 0 {
		q.Set("method", strings.Join(f.Methods, ","))
	}
	if f.Search != "" {
		q.Set("search", f.Search)
	}
	if f.SamplingRate > 0 {
		q.Set("sampling_rate", strconv.FormatFloat(f.SamplingRate, 'g', -1, 64))
	}
	return q
}

// Match reports whether ev passes f's filters, sampling aside.
func (f Filter) Match(ev *Event) bool {
	if f.Worker != "" && ev.ScriptName != f.Worker {
		return false
	}
	if len(f.Status) > 0 {
		st := "error"
		if ev.Outcome == "ok" {
			st = "ok"
		}
		if !slices.Contains(f.Status, st) {
			return false
		}
	}
	if len(f.Methods) > 0 && !slices.Contains(f.Methods, ev.Event.Request.Method) {
		return false
	}
	if f.Search != "" && !strings.Contains(ev.Event.Request.URL, f.Search) && !slices.ContainsFunc(ev.Logs, func(l Log) bool {
		return slices.ContainsFunc(l.Message, func(m string) bool { return strings.Contains(m, f.Search) })
	}) {
		return false
	}
	return true
}
