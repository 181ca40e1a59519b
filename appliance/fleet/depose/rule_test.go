package depose

import (
	"maps"
	"slices"
	"testing"
)

func TestDeposedRule(t *testing.T) {
	abc := runs("a", "b", "c")
	five := runs("a", "b", "c", "d", "e")
	for _, tc := range []struct {
		name    string
		live    []Peer
		reports []Report
		want    []string
	}{
		{"no reports", abc, nil, nil},
		{"one flaky peer of three", abc, []Report{{"a", "b", 0}}, nil},
		{"both peers of three", abc, []Report{{"a", "b", 0}, {"a", "c", 0}}, []string{"a"}},
		{"a cut-off replica reports everyone", abc, []Report{{"b", "a", 0}, {"c", "a", 0}, {"a", "b", 0}, {"a", "c", 0}}, []string{"a"}},
		{"duplicates count once", abc, []Report{{"a", "b", 0}, {"a", "b", 0}}, nil},
		{"a reporter that is not live", abc, []Report{{"a", "b", 0}, {"a", "x", 0}}, nil},
		{"a suspect that is not live", abc, []Report{{"x", "b", 0}, {"x", "c", 0}}, nil},
		{"reports on oneself", abc, []Report{{"a", "a", 0}, {"a", "b", 0}}, nil},
		{"two replicas cut apart", runs("a", "b"), []Report{{"a", "b", 0}, {"b", "a", 0}}, nil},
		{"reports on an earlier run", abc, []Report{{"a", "b", -1}, {"a", "c", -1}}, nil},
		{"one report on this run, one on an earlier", abc, []Report{{"a", "b", 0}, {"a", "c", -1}}, nil},
		{"two of four others: not more than half", five, []Report{{"a", "b", 0}, {"a", "c", 0}}, nil},
		{"three of four others", five, []Report{{"a", "b", 0}, {"a", "c", 0}, {"a", "d", 0}}, []string{"a"}},
		{"a 2|3 split deposes the minority", five, []Report{
			{"a", "c", 0}, {"a", "d", 0}, {"a", "e", 0}, {"b", "c", 0}, {"b", "d", 0}, {"b", "e", 0},
			{"c", "a", 0}, {"c", "b", 0}, {"d", "a", 0}, {"d", "b", 0}, {"e", "a", 0}, {"e", "b", 0},
		}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(Deposed(tc.reports, tc.live)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Deposed = %v, want %v", got, tc.want)
			}
		})
	}
}

// runs returns live peers, each in run 0.
func runs(ids ...string) []Peer {
	out := make([]Peer, len(ids))
	for i, id := range ids {
		out[i] = Peer{ID: id}
	}
	return out
}
