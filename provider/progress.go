package provider

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// EnvProgress sets the provider's progress when its configuration does not.
const EnvProgress = "DWK_PROGRESS"

// The values of progress besides a file path.
const (
	progressAuto = "auto"
	progressOff  = "off"
)

// progress shows what a rollout does, host by host, while it runs: a
// Terraform CLI shows a provider's log only with TF_LOG, and a rollout of
// many hosts is minutes of "Still modifying...". Lines go to the
// terminal Terraform runs in (auto), to a file, or nowhere.
type progress struct {
	mu sync.Mutex
	w  io.Writer // nil: off
}

// openProgress opens the progress sink that setting names.
func openProgress(setting string) (*progress, error) {
	switch setting {
	case "", progressAuto:
		// The controlling terminal, when there is one; Terraform's own
		// output goes there too, a line at a time.
		f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
		if err != nil {
			return &progress{}, nil
		}
		return &progress{w: f}, nil
	case progressOff:
		return &progress{}, nil
	}
	f, err := os.OpenFile(setting, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("progress: %w", err)
	}
	return &progress{w: f}, nil
}

// line writes one progress line: the time, the fleet, the host and what
// happened, with fields as key=value.
func (p *progress) line(fleet, msg string, fields map[string]any) {
	p.resourceLine("dwk_fleet", fleet, msg, fields)
}

// resourceLine is line for a resource of type typ named name.
func (p *progress) resourceLine(typ, name, msg string, fields map[string]any) {
	if p == nil || p.w == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", time.Now().Format("15:04:05"), typ, name)
	if h, ok := fields["host"]; ok {
		fmt.Fprintf(&b, " %v", h)
	}
	fmt.Fprintf(&b, ": %s", msg)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		if k != "host" && k != "member" && k != "fleet" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, fields[k])
	}
	b.WriteByte('\n')
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.w, b.String())
}
