package depose

// Report says that Reporter could not reach Suspect.
type Report struct {
	Suspect, Reporter string
}

// Deposed returns the members of live that the reports depose: those that
// more than half of the other live members, and at least two of them,
// report (see the package doc). Duplicate reports, reports from replicas
// not in live and reports on oneself count for nothing.
func Deposed(reports []Report, live []string) map[string]bool {
	isLive := make(map[string]bool, len(live))
	for _, id := range live {
		isLive[id] = true
	}
	by := map[string]map[string]bool{}
	for _, r := range reports {
		if !isLive[r.Suspect] || !isLive[r.Reporter] || r.Suspect == r.Reporter {
			continue
		}
		if by[r.Suspect] == nil {
			by[r.Suspect] = map[string]bool{}
		}
		by[r.Suspect][r.Reporter] = true
	}
	others := len(isLive) - 1
	out := map[string]bool{}
	for s, rs := range by {
		if n := len(rs); n >= 2 && 2*n > others {
			out[s] = true
		}
	}
	return out
}
