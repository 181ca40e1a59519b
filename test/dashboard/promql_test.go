package dashboard

import (
	"reflect"
	"testing"
)

func TestMetricNames(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
	}{
		{`dwk_leases_held{member=~"$member"}`, []string{"dwk_leases_held"}},
		{`sum by (member) (rate(dwk_http_requests_total{member=~"$member", code!="5xx"}[$__rate_interval]))`, []string{"dwk_http_requests_total"}},
		{`histogram_quantile(0.99, sum by (le, member) (rate(dwk_http_request_duration_seconds_bucket{member=~"${member}"}[5m])))`,
			[]string{"dwk_http_request_duration_seconds_bucket"}},
		{`sum(rate(a_total[1m])) by (le) / ignoring (store) group_left sum without(instance) (rate(b_total[1m] offset 5m))`,
			[]string{"a_total", "b_total"}},
		{`max(x{re="a}b{c"}) > bool 1e3 and on() y unless z`, []string{"x", "y", "z"}},
		{`label_replace(up, "dst", "$1", "src", "(.*)")`, []string{"up"}},
		{`1 + 2`, nil},
	} {
		if got := MetricNames(c.expr); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MetricNames(%s) = %q, want %q", c.expr, got, c.want)
		}
	}
	if got := UnknownCalls(`sum(rate(x[1m])) / rates(y[1m])`); !reflect.DeepEqual(got, []string{"rates"}) {
		t.Errorf("UnknownCalls = %q, want [rates]", got)
	}
}
