package depose

// Report says that Reporter could not reach Suspect during Suspect's run
// Run (Peer.Run).
type Report struct {
	Suspect, Reporter string
	Run               int64
}

// Deposed returns the members of live that the reports depose: those that
// more than half of the other live members, and at least two of them,
// report (see the package doc). Duplicate reports, reports from replicas
// not in live, reports on oneself and reports on an earlier run of the
// suspect (a replica restarted since) count for nothing.
func Deposed(reports []Report, live []Peer) map[string]bool {
	runs := make(map[string]int64, len(live))
	for _, p := range live {
		runs[p.ID] = p.Run
	}
	by := map[string]map[string]bool{}
	for _, r := range reports {
		run, suspectLive := runs[r.Suspect]
		if _, reporterLive := runs[r.Reporter]; !suspectLive || !reporterLive || run != r.Run || r.Suspect == r.Reporter {
			continue
		}
		if by[r.Suspect] == nil {
			by[r.Suspect] = map[string]bool{}
		}
		by[r.Suspect][r.Reporter] = true
	}
	others := len(runs) - 1
	out := map[string]bool{}
	for s, rs := range by {
		if n := len(rs); n >= 2 && 2*n > others {
			out[s] = true
		}
	}
	return out
}
