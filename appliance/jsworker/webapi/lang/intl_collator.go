package lang

import (
	"strings"
	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// collator is a resolved Intl.Collator over the CLDR root collation.
type collator struct {
	c          *collate.Collator
	caseOnly   *collate.Collator // sensitivity "case": compares accent-stripped strings after c
	upperFirst bool
	caseless   *collate.Collator // compares without case, for caseFirst "upper"
}

// newCollator makes the collator for the options (sensitivity base,
// accent, case or variant).
func newCollator(sensitivity string, numeric, ignorePunctuation bool, caseFirst string) *collator {
	var keys []string
	if ignorePunctuation {
		keys = append(keys, "ka-shifted")
	}
	if numeric {
		keys = append(keys, "kn-true")
	}
	c := &collator{upperFirst: caseFirst == "upper" && (sensitivity == "variant" || sensitivity == "case")}
	switch sensitivity {
	case "base":
		c.c = collate.New(tagWith(append(keys, "ks-level1")))
	case "accent":
		c.c = collate.New(tagWith(append(keys, "ks-level2")))
	case "case":
		// x/text has no case level: compare the base letters, then the
		// strings without their accents at full strength.
		c.c = collate.New(tagWith(append(keys, "ks-level1")))
		c.caseOnly = collate.New(tagWith(keys))
	default:
		c.c = collate.New(tagWith(keys))
	}
	if c.upperFirst {
		c.caseless = collate.New(tagWith(keys), collate.IgnoreCase)
	}
	return c
}

func tagWith(keys []string) language.Tag {
	if len(keys) == 0 {
		return language.Und
	}
	return language.Make("und-u-" + strings.Join(keys, "-"))
}

// compare orders a and b: -1, 0 or 1.
func (c *collator) compare(a, b string) int {
	r := c.c.CompareString(a, b)
	if r == 0 && c.caseOnly != nil {
		r = c.caseOnly.CompareString(stripAccents(a), stripAccents(b))
	}
	if c.upperFirst && r != 0 && c.caseless.CompareString(a, b) == 0 {
		return -r // they differ only in case: upper case first
	}
	return r
}

// stripAccents removes the combining marks of s's canonical decomposition.
func stripAccents(s string) string {
	d := norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
}
