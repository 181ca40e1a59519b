package server

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/bindings/cron/cronlease"
	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/membership"
)

// FleetReport is what GET /admin/fleet returns: the fleet as this replica
// sees it, for the fleet page. Peers' figures come from their own
// /admin/status, fetched with this replica's admin token.
type FleetReport struct {
	// Self is this replica's member id.
	Self string `json:"self"`
	// Members are the live member records (only this replica in local
	// mode), sorted by id.
	Members []MemberReport `json:"members"`
	// CoordRTTMillis are the latest coordination round trips timed by
	// this replica's fleet reports, oldest first (central mode).
	CoordRTTMillis []float64 `json:"coord_rtt_ms"`
	// Queues are the configured queues' backlogs.
	Queues []QueueReport `json:"queues"`
	// Alarms are the object alarms due now (central mode).
	Alarms AlarmReport `json:"alarms"`
	// Cron are the latest won ticks of each schedule, newest first
	// (central mode).
	Cron []cronlease.Tick `json:"cron"`
	// Errors are the parts of the report that could not be read.
	Errors []string `json:"errors,omitempty"`
}

// MemberReport is one member in a FleetReport.
type MemberReport struct {
	// ID, State, Version and Started are from the member record.
	ID      string    `json:"id"`
	State   string    `json:"state"`
	Version string    `json:"version"`
	Started time.Time `json:"started"`
	// Admin is the member's admin API URL, "" without one.
	Admin string `json:"admin,omitempty"`
	// Status is the member's own /admin/status; nil when it could not be
	// reached, and then Error says why.
	Status *StatusReport `json:"status,omitempty"`
	Error  string        `json:"error,omitempty"`
}

// QueueReport is one queue's backlog.
type QueueReport struct {
	// Queue is the queue's name.
	Queue string `json:"queue"`
	// Depth and OldestAgeSeconds are as dwk_queue_depth and
	// dwk_queue_oldest_age_seconds report them.
	Depth            int     `json:"depth"`
	OldestAgeSeconds float64 `json:"oldest_age_seconds"`
	// DeadLetterQueue and DeadLetters are set for a consumed queue with a
	// dead-letter queue: the messages waiting there.
	DeadLetterQueue string `json:"dead_letter_queue,omitempty"`
	DeadLetters     int    `json:"dead_letters"`
}

// AlarmReport is the alarms due now, earliest first.
type AlarmReport struct {
	// Due counts the listed alarms; Truncated is true when more are due.
	Due       int  `json:"due"`
	Truncated bool `json:"truncated,omitempty"`
	// MaxLagSeconds is how late the earliest of them is.
	MaxLagSeconds float64     `json:"max_lag_seconds"`
	Items         []AlarmItem `json:"items"`
}

// AlarmItem is one alarm due.
type AlarmItem struct {
	// Class and ID name the object (ID in hex).
	Class string `json:"class"`
	ID    string `json:"id"`
	// At is when the alarm (or its next retry) was due; LagSeconds is how
	// long ago that was.
	At         time.Time `json:"at"`
	LagSeconds float64   `json:"lag_seconds"`
	// Retries counts the alarm's failed attempts.
	Retries int `json:"retries"`
}

// Report bounds.
const (
	// reportTimeout bounds one fleet report, peers' status included.
	reportTimeout = 2 * time.Second
	// alarmsListed and ticksListed bound the alarms and, per schedule, the
	// cron ticks a report lists.
	alarmsListed = 20
	ticksListed  = 5
)

// fleetReport assembles the FleetReport; its parts are read concurrently.
func (s *Server) fleetReport(ctx context.Context, a *app, token string) FleetReport {
	ctx, cancel := context.WithTimeout(ctx, reportTimeout)
	defer cancel()
	rep := FleetReport{Self: s.member, Queues: []QueueReport{}, Cron: []cronlease.Tick{}, Alarms: AlarmReport{Items: []AlarmItem{}}}
	var mu sync.Mutex
	fail := func(err error) {
		mu.Lock()
		rep.Errors = append(rep.Errors, err.Error())
		mu.Unlock()
	}
	var wg sync.WaitGroup
	f, _ := a.fleet.(*centralFleet)
	wg.Go(func() { rep.Members = s.memberReports(ctx, f, token) })
	wg.Go(func() {
		qs, err := s.queueReports(ctx, a)
		if err != nil {
			fail(err)
		}
		rep.Queues = qs
	})
	if f != nil {
		wg.Go(func() {
			start := time.Now()
			if _, err := f.coord.Get(ctx, membership.Key(s.member)); err != nil {
				fail(err)
				return
			}
			s.coordRTT.add(time.Since(start))
		})
		wg.Go(func() {
			ar, err := alarmReport(ctx, f)
			if err != nil {
				fail(err)
			}
			rep.Alarms = ar
		})
		wg.Go(func() {
			ticks, err := s.cronReport(ctx, f)
			if err != nil {
				fail(err)
			}
			rep.Cron = ticks
		})
	}
	wg.Wait()
	rep.CoordRTTMillis = s.coordRTT.millis()
	return rep
}

// memberReports lists the members with their own status: this replica's
// from memory, each peer's from its admin API.
func (s *Server) memberReports(ctx context.Context, f *centralFleet, token string) []MemberReport {
	if f == nil {
		st := s.Status()
		return []MemberReport{{ID: s.member, State: string(st.State), Version: st.Version, Started: st.Started, Status: &st}}
	}
	ms := f.view.Members()
	out := make([]MemberReport, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		base, client, cerr := s.peerAdmin(m, token)
		out[i] = MemberReport{ID: m.ID, State: string(m.State), Version: m.Version, Started: m.Started, Admin: base}
		if m.ID == s.member {
			st := s.Status()
			out[i].Status = &st
			continue
		}
		if out[i].Admin == "" {
			out[i].Error = "no admin listener"
			continue
		}
		if cerr != nil {
			out[i].Error = cerr.Error()
			continue
		}
		wg.Go(func() {
			var st StatusReport
			if err := client.Call(ctx, http.MethodGet, out[i].Admin, "/admin/status", &st); err != nil {
				out[i].Error = err.Error()
				return
			}
			out[i].Status = &st
		})
	}
	wg.Wait()
	return out
}

// queueReports reads every configured queue's backlog in one query.
func (s *Server) queueReports(ctx context.Context, a *app) ([]QueueReport, error) {
	queues, deadLetter := configuredQueues(s.cfg)
	if a.broker == nil || len(queues) == 0 {
		return []QueueReport{}, nil
	}
	bls, err := a.broker.Backlogs(ctx)
	if err != nil {
		return []QueueReport{}, err
	}
	byQueue := map[string]QueueReport{}
	for _, bl := range bls {
		byQueue[bl.Queue] = QueueReport{Queue: bl.Queue, Depth: bl.Depth, OldestAgeSeconds: bl.OldestAge.Seconds()}
	}
	out := make([]QueueReport, 0, len(queues))
	for _, q := range queues {
		r := byQueue[q]
		r.Queue = q
		if dlq, ok := deadLetter[q]; ok {
			r.DeadLetterQueue, r.DeadLetters = dlq, byQueue[dlq].Depth
		}
		out = append(out, r)
	}
	return out, nil
}

// alarmReport lists the alarms due now.
func alarmReport(ctx context.Context, f *centralFleet) (AlarmReport, error) {
	rep := AlarmReport{Items: []AlarmItem{}}
	now := time.Now()
	due, err := f.alarms.Overdue(ctx, now, alarmsListed+1)
	if err != nil {
		return rep, err
	}
	if len(due) > alarmsListed {
		due, rep.Truncated = due[:alarmsListed], true
	}
	for _, e := range due {
		lag := now.Sub(e.At).Seconds()
		rep.Items = append(rep.Items, AlarmItem{Class: e.Object.Namespace(), ID: e.Object.String(), At: e.At.UTC(), LagSeconds: lag, Retries: e.Retries})
		rep.MaxLagSeconds = max(rep.MaxLagSeconds, lag)
	}
	rep.Due = len(rep.Items)
	return rep, nil
}

// cronReport lists the latest won ticks of every configured schedule,
// newest first.
func (s *Server) cronReport(ctx context.Context, f *centralFleet) ([]cronlease.Tick, error) {
	var out []cronlease.Tick
	for _, w := range s.cfg.Workers {
		for _, expr := range w.Crons {
			sched, err := cron.Parse(expr)
			if err != nil {
				continue // Validate refused it at start-up.
			}
			ticks, err := f.claimer.Recent(ctx, cron.Entry{Worker: w.Name, Schedule: sched}.Key(), ticksListed)
			if err != nil {
				return out, err
			}
			out = append(out, ticks...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if out == nil {
		out = []cronlease.Tick{}
	}
	return out, nil
}

// objectStats is what the status report needs of the object runtime.
type objectStats interface{ Stats() objects.Stats }

var _ objectStats = (*objects.Runtime)(nil)

// rttSamples is how many coordination round trips rttRing keeps.
const rttSamples = 60

// rttRing keeps the latest timed round trips. Its zero value is ready.
type rttRing struct {
	mu      sync.Mutex
	samples []time.Duration
}

func (r *rttRing) add(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, d)
	if len(r.samples) > rttSamples {
		r.samples = r.samples[len(r.samples)-rttSamples:]
	}
}

// millis returns the samples in milliseconds, oldest first.
func (r *rttRing) millis() []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]float64, len(r.samples))
	for i, d := range r.samples {
		out[i] = float64(d.Microseconds()) / 1000
	}
	return out
}
