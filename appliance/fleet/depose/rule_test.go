package depose

import (
	"maps"
	"slices"
	"testing"
)

func TestDeposedRule(t *testing.T) {
	abc := []string{"a", "b", "c"}
	five := []string{"a", "b", "c", "d", "e"}
	for _, tc := range []struct {
		name    string
		live    []string
		reports []Report
		want    []string
	}{
		{"no reports", abc, nil, nil},
		{"one flaky peer of three", abc, []Report{{"a", "b"}}, nil},
		{"both peers of three", abc, []Report{{"a", "b"}, {"a", "c"}}, []string{"a"}},
		{"a cut-off replica reports everyone", abc, []Report{{"b", "a"}, {"c", "a"}, {"a", "b"}, {"a", "c"}}, []string{"a"}},
		{"duplicates count once", abc, []Report{{"a", "b"}, {"a", "b"}}, nil},
		{"a reporter that is not live", abc, []Report{{"a", "b"}, {"a", "x"}}, nil},
		{"a suspect that is not live", abc, []Report{{"x", "b"}, {"x", "c"}}, nil},
		{"reports on oneself", abc, []Report{{"a", "a"}, {"a", "b"}}, nil},
		{"two replicas cut apart", []string{"a", "b"}, []Report{{"a", "b"}, {"b", "a"}}, nil},
		{"two of four others: not more than half", five, []Report{{"a", "b"}, {"a", "c"}}, nil},
		{"three of four others", five, []Report{{"a", "b"}, {"a", "c"}, {"a", "d"}}, []string{"a"}},
		{"a 2|3 split deposes the minority", five, []Report{
			{"a", "c"}, {"a", "d"}, {"a", "e"}, {"b", "c"}, {"b", "d"}, {"b", "e"},
			{"c", "a"}, {"c", "b"}, {"d", "a"}, {"d", "b"}, {"e", "a"}, {"e", "b"},
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
