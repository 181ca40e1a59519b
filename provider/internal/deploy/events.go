package deploy

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"
)

// Events written to deploy.log, one line each: "<RFC3339Nano UTC> <event>
// [detail]". The times come from the deployer's clock (the machine running
// Terraform), so lines of different hosts compare.
const (
	EventInstall = "install" // binary and config staged
	EventDrain   = "drain"   // stop requested: the replica leaves rotation
	EventStopped = "stopped" // the replica has exited
	EventStart   = "start"   // the service was started
	EventReady   = "ready"   // /readyz answered 200
	EventHealthy = "healthy" // /readyz stayed 200 for min_healthy_time
	EventFailed  = "failed"  // the host failed; detail says why
	EventRevert  = "revert"  // the previous binary and config were put back
)

// Event is one deploy.log line.
type Event struct {
	Time   time.Time
	Name   string
	Detail string
}

// event appends an event to the host's deploy.log. A failure to write the
// log does not fail the deployment.
func (d *Deployer) event(ctx context.Context, h *Host, name, detail string) {
	line := fmt.Sprintf("%s %s %s\n", d.Now().UTC().Format(time.RFC3339Nano), name, strings.ReplaceAll(detail, "\n", " "))
	cmd := fmt.Sprintf("mkdir -p %s && cat >> %s", quote(h.InstallDir), h.q("deploy.log"))
	if _, err := h.Target.Run(ctx, cmd, strings.NewReader(line)); err != nil {
		d.logf(ctx, h, "could not write deploy.log", "error", err.Error())
	}
}

// ParseEvents reads deploy.log content.
func ParseEvents(log string) ([]Event, error) {
	var evs []Event
	sc := bufio.NewScanner(strings.NewReader(log))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		ts, rest, _ := strings.Cut(line, " ")
		name, detail, _ := strings.Cut(rest, " ")
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return nil, fmt.Errorf("deploy.log line %d: %w", n, err)
		}
		evs = append(evs, Event{Time: t, Name: name, Detail: detail})
	}
	return evs, sc.Err()
}
