package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandlerExposesMetrics(t *testing.T) {
	m := New("r1")
	m.Requests.WithLabelValues("counter", "2xx").Inc()
	m.CoordRoundTrips.Add(3)
	m.GaugeFunc("dwk_test_gauge", "test", nil, func() float64 { return 7 })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`dwk_http_requests_total{code="2xx",member="r1",worker="counter"} 1`,
		`dwk_coord_round_trips_total{member="r1"} 3`,
		`dwk_test_gauge 7`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	// Two replicas in one process must not collide.
	New("r2")
}
