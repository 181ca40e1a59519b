package machines

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
)

// exposureLine is the last line of systemd-analyze security UNIT, e.g.
// "→ Overall exposure level for sshd.service: 9.6 UNSAFE 😨".
var exposureLine = regexp.MustCompile(`Overall exposure level for (\S+): ([0-9]+(?:\.[0-9]+)?)`)

// Exposure returns the overall exposure level (0.0 most secure, 10.0 least)
// that systemd-analyze security gives unit on m.
func (m *Machine) Exposure(ctx context.Context, unit string) (float64, error) {
	out, err := m.Run(ctx, "SYSTEMD_COLORS=0 systemd-analyze security --no-pager "+shellQuote(unit))
	if err != nil {
		return 0, err
	}
	return parseExposure(string(out))
}

// parseExposure returns the level in the output of systemd-analyze
// security for one unit.
func parseExposure(out string) (float64, error) {
	sub := exposureLine.FindStringSubmatch(out)
	if sub == nil {
		return 0, fmt.Errorf("no overall exposure level in systemd-analyze output:\n%s", out)
	}
	return strconv.ParseFloat(sub[2], 64)
}
