package partition

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// summary is what the requests of a case came to.
type summary struct {
	total, failed int
	longest       request
	hung          []request          // took hangBound or longer
	kinds         map[string]int     // failures by kind
	samples       map[string]request // one failure of each kind
}

func (l *load) summary() summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := summary{total: len(l.requests), kinds: map[string]int{}, samples: map[string]request{}}
	for _, r := range l.requests {
		if r.took > s.longest.took {
			s.longest = r
		}
		if r.took >= hangBound {
			s.hung = append(s.hung, r)
		}
		if r.err == nil {
			continue
		}
		s.failed++
		k := kind(r)
		if s.kinds[k] == 0 {
			s.samples[k] = r
		}
		s.kinds[k]++
	}
	return s
}

// kind names a failure for counting: its status, or the class of error
// when no answer came.
func kind(r request) string {
	var ne net.Error
	switch {
	case r.status != 0:
		return fmt.Sprintf("HTTP %d", r.status)
	case unsent(r.err):
		return "connection not opened"
	case errors.As(r.err, &ne) && ne.Timeout():
		return fmt.Sprintf("client timeout (%v)", r.timeout)
	default:
		return "connection broken"
	}
}

func (r request) String() string {
	out := fmt.Sprintf("%s took %v", r.what, r.took.Round(time.Millisecond))
	if r.err != nil {
		msg, _, _ := strings.Cut(r.err.Error(), "\n")
		out += ": " + msg
	}
	return out
}
