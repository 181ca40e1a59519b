package lang

import (
	"fmt"
	"strings"
	"time"
)

var (
	monthsLong    = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsShort   = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	weekdaysLong  = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	weekdaysShort = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
)

// flexibleDayPeriod is en's dayPeriod text for an hour and minute.
func flexibleDayPeriod(hour, minute int, width string) string {
	switch {
	case hour == 12 && minute == 0:
		if width == "narrow" {
			return "n"
		}
		return "noon"
	case hour >= 6 && hour < 12:
		return "in the morning"
	case hour >= 12 && hour < 18:
		return "in the afternoon"
	case hour >= 18 && hour < 21:
		return "in the evening"
	}
	return "at night"
}

// usZones are the abbreviations en-US shows for North American zones,
// with their long names and generic names.
var usZones = map[string][3]string{
	"EST":  {"Eastern Standard Time", "ET", "Eastern Time"},
	"EDT":  {"Eastern Daylight Time", "ET", "Eastern Time"},
	"CST":  {"Central Standard Time", "CT", "Central Time"},
	"CDT":  {"Central Daylight Time", "CT", "Central Time"},
	"MST":  {"Mountain Standard Time", "MT", "Mountain Time"},
	"MDT":  {"Mountain Daylight Time", "MT", "Mountain Time"},
	"PST":  {"Pacific Standard Time", "PT", "Pacific Time"},
	"PDT":  {"Pacific Daylight Time", "PT", "Pacific Time"},
	"AKST": {"Alaska Standard Time", "AKT", "Alaska Time"},
	"AKDT": {"Alaska Daylight Time", "AKT", "Alaska Time"},
	"HST":  {"Hawaii-Aleutian Standard Time", "HST", "Hawaii-Aleutian Time"},
	"HDT":  {"Hawaii-Aleutian Daylight Time", "HST", "Hawaii-Aleutian Time"},
}

// otherZones are long names of common zones outside North America, by
// region prefix and abbreviation.
var otherZones = map[string]string{
	"Europe/GMT":      "Greenwich Mean Time",
	"Europe/BST":      "British Summer Time",
	"Europe/IST":      "Irish Standard Time",
	"Europe/CET":      "Central European Standard Time",
	"Europe/CEST":     "Central European Summer Time",
	"Europe/EET":      "Eastern European Standard Time",
	"Europe/EEST":     "Eastern European Summer Time",
	"Europe/WET":      "Western European Standard Time",
	"Europe/WEST":     "Western European Summer Time",
	"Europe/MSK":      "Moscow Standard Time",
	"Asia/IST":        "India Standard Time",
	"Asia/JST":        "Japan Standard Time",
	"Asia/KST":        "Korean Standard Time",
	"Asia/CST":        "China Standard Time",
	"Asia/HKT":        "Hong Kong Standard Time",
	"Asia/PKT":        "Pakistan Standard Time",
	"Asia/WIB":        "Western Indonesia Time",
	"Australia/AEST":  "Australian Eastern Standard Time",
	"Australia/AEDT":  "Australian Eastern Daylight Time",
	"Australia/ACST":  "Australian Central Standard Time",
	"Australia/ACDT":  "Australian Central Daylight Time",
	"Australia/AWST":  "Australian Western Standard Time",
	"Pacific/NZST":    "New Zealand Standard Time",
	"Pacific/NZDT":    "New Zealand Daylight Time",
	"Africa/SAST":     "South Africa Standard Time",
	"Africa/CAT":      "Central Africa Time",
	"Africa/EAT":      "East Africa Time",
	"Africa/WAT":      "West Africa Standard Time",
	"America/BRT":     "Brasilia Standard Time",
	"America/ART":     "Argentina Standard Time",
	"Atlantic/GMT":    "Greenwich Mean Time",
	"Etc/GMT":         "Greenwich Mean Time",
	"Africa/GMT":      "Greenwich Mean Time",
	"America/AST":     "Atlantic Standard Time",
	"America/ADT":     "Atlantic Daylight Time",
	"America/NST":     "Newfoundland Standard Time",
	"America/NDT":     "Newfoundland Daylight Time",
	"Pacific/ChST":    "Chamorro Standard Time",
	"Asia/PHT":        "Philippine Standard Time",
	"Asia/Jerusalem":  "Israel Standard Time",
	"Europe/Istanbul": "Turkey Time",
}

// isNorthAmerican reports whether en-US uses the zone's own
// abbreviations.
func isNorthAmerican(name string) bool {
	return strings.HasPrefix(name, "America/") || strings.HasPrefix(name, "US/") || strings.HasPrefix(name, "Canada/") ||
		name == "Pacific/Honolulu" || name == "EST5EDT" || name == "CST6CDT" || name == "MST7MDT" || name == "PST8PDT"
}

// zoneName is the timeZoneName field of t in z.
func zoneName(z zone, t time.Time, style string) string {
	abbr, offset := t.Zone()
	minutes := offset / 60
	if z.name == "UTC" {
		switch style {
		case "long", "longGeneric":
			return "Coordinated Universal Time"
		case "shortOffset", "longOffset":
			return "GMT"
		}
		return "UTC"
	}
	us, isUS := usZones[abbr]
	isUS = isUS && isNorthAmerican(z.name)
	region, _, _ := strings.Cut(z.name, "/")
	switch style {
	case "short":
		if isUS {
			return abbr
		}
		if region == "Europe" && abbr == "GMT" {
			return "GMT"
		}
		return gmtOffset(minutes, false)
	case "long":
		if isUS {
			return us[0]
		}
		if name, ok := otherZones[region+"/"+abbr]; ok {
			return name
		}
		if name, ok := otherZones[z.name]; ok {
			return name
		}
		return gmtOffset(minutes, true)
	case "shortGeneric":
		if isUS {
			return us[1]
		}
		return gmtOffset(minutes, false)
	case "longGeneric":
		if isUS {
			return us[2]
		}
		return gmtOffset(minutes, true)
	case "longOffset":
		return gmtOffset(minutes, true)
	}
	return gmtOffset(minutes, false) // shortOffset
}

// gmtOffset writes GMT-8, GMT+5:30 (short) or GMT-08:00 (long); GMT for
// zero.
func gmtOffset(minutes int, long bool) string {
	if minutes == 0 {
		return "GMT"
	}
	sign := "+"
	if minutes < 0 {
		sign, minutes = "-", -minutes
	}
	h, m := minutes/60, minutes%60
	if long {
		return fmt.Sprintf("GMT%s%02d:%02d", sign, h, m)
	}
	if m == 0 {
		return fmt.Sprintf("GMT%s%d", sign, h)
	}
	return fmt.Sprintf("GMT%s%d:%02d", sign, h, m)
}
