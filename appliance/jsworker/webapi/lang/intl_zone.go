package lang

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // time zones on hosts without /usr/share/zoneinfo
)

// zone is a resolved time zone: the name resolvedOptions reports and its
// location.
type zone struct {
	name string
	loc  *time.Location
}

var (
	zonesOnce sync.Once
	zoneByKey map[string]string // lower-case name → tz database spelling
	zoneCache sync.Map          // name → zone
)

// utcNames are the names ECMA-402 resolves to "UTC".
var utcNames = map[string]bool{
	"utc": true, "etc/utc": true, "gmt": true, "etc/gmt": true, "uct": true, "etc/uct": true,
	"universal": true, "etc/universal": true, "zulu": true, "etc/zulu": true, "greenwich": true,
	"etc/greenwich": true, "gmt0": true, "gmt+0": true, "gmt-0": true, "etc/gmt0": true,
	"etc/gmt+0": true, "etc/gmt-0": true,
}

// lookupZone resolves a timeZone option: a tz database name in any case,
// or an offset such as +05:30. ok is false for anything else.
func lookupZone(name string) (zone, bool) {
	if z, ok := zoneCache.Load(name); ok {
		return z.(zone), true
	}
	z, ok := resolveZone(name)
	if ok {
		zoneCache.Store(name, z)
	}
	return z, ok
}

func resolveZone(name string) (zone, bool) {
	key := strings.ToLower(name)
	if utcNames[key] {
		return zone{"UTC", time.UTC}, true
	}
	if off, ok := parseOffset(name); ok {
		sign := '+'
		if off < 0 {
			sign, off = '-', -off
		}
		label := fmt.Sprintf("%c%02d:%02d", sign, off/60, off%60)
		secs := off * 60
		if sign == '-' {
			secs = -secs
		}
		return zone{label, time.FixedZone(label, secs)}, true
	}
	zonesOnce.Do(func() {
		zoneByKey = make(map[string]string, len(canonicalZones)+len(linkZones))
		for _, list := range [][]string{linkZones, canonicalZones} {
			for _, z := range list {
				zoneByKey[strings.ToLower(z)] = z
			}
		}
	})
	spelled, ok := zoneByKey[key]
	if !ok {
		return zone{}, false
	}
	loc, err := time.LoadLocation(spelled)
	if err != nil {
		return zone{}, false
	}
	return zone{spelled, loc}, true
}

// parseOffset reads ±HH, ±HHMM or ±HH:MM in minutes.
func parseOffset(s string) (int, bool) {
	if len(s) < 3 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	body := strings.ReplaceAll(s[1:], ":", "")
	if len(body) != 2 && len(body) != 4 || !allDigits(body) || strings.Count(s, ":") > 1 || strings.Contains(s, ":") && len(s) != 6 {
		return 0, false
	}
	h, _ := strconv.Atoi(body[:2])
	m := 0
	if len(body) == 4 {
		m, _ = strconv.Atoi(body[2:])
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	off := h*60 + m
	if s[0] == '-' {
		off = -off
	}
	return off, true
}
