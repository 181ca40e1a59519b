package fleet

import (
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestAlarmSurvivesHolderKill sets an alarm on an object, kills the object's
// holder before the alarm is due: the alarm still fires, on another
// replica, at least once and with bounded retries.
func TestAlarmSurvivesHolderKill(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: 2 * time.Second})
	var holder string
	for _, r := range f.Replicas {
		if _, m, err := post(r.Public+"/counter/alarmed/alarm?in=3s", nil); err == nil {
			holder = m
			break
		}
	}
	var victim, other *fleettest.Replica
	for _, r := range f.Replicas {
		if r.Member == holder {
			victim = r
		} else {
			other = r
		}
	}
	if victim == nil {
		t.Fatalf("holder %q is not a replica", holder)
	}
	victim.Kill()
	set := time.Now()
	var st struct{ Fired int64 }
	wait.Within(t, 30*time.Second, "the alarm fires after its holder was killed", func() bool {
		_, _, err := get(other.Public+"/counter/alarmed/alarm", &st)
		return err == nil && st.Fired >= 1
	})
	t.Logf("alarm fired %d time(s), %v after the holder was killed", st.Fired, time.Since(set).Round(time.Millisecond))
	if st.Fired > 7 {
		t.Errorf("alarm fired %d times: retries are not bounded", st.Fired)
	}
}
