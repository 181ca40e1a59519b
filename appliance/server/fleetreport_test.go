package server

import (
	"testing"
	"time"
)

func TestRTTRing(t *testing.T) {
	var r rttRing
	for i := range rttSamples + 5 {
		r.add(time.Duration(i) * time.Millisecond)
	}
	got := r.millis()
	if len(got) != rttSamples || got[0] != 5 || got[len(got)-1] != rttSamples+4 {
		t.Fatalf("after %d samples: %d kept, first %v, last %v; want the latest %d", rttSamples+5, len(got), got[0], got[len(got)-1], rttSamples)
	}
}
