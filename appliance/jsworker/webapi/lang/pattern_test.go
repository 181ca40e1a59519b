package lang

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTranslate(t *testing.T) {
	for _, tc := range []struct {
		source, flags    string
		native, natFlags string
		names            []string
	}{
		{`(?<year>\d{4})-(\d\d)`, "", `(\d{4})-(\d\d)`, "", []string{"year", ""}},
		{`(?<q>['"]).*?\k<q>`, "g", `(['"]).*?(?:\1)`, "g", []string{"q"}},
		{`(?<a>x)|(?<a>y)\k<a>`, "", `(x)|(y)(?:\1\2)`, "", []string{"a", "a"}},
		{`(?<=\$)(?<n>\d+)`, "", `(?<=\$)(\d+)`, "", []string{"n"}},
		{`[(?<a>)](?<b>.)`, "", `[(?<a>)](.)`, "", []string{"b"}},
		{`a`, "dg", `a`, "g", nil},
		{`\p{Lu}`, "u", `[`, "u", nil},
		{`[\p{ASCII}--[a-z]]`, "v", `[`, "u", nil},
		{`\k<x>`, "d", `\k<x>`, "", nil}, // no named groups and no u: \k is the letter k
	} {
		p, err := translate(tc.source, tc.flags)
		if err != nil {
			t.Errorf("translate(%q, %q): %v", tc.source, tc.flags, err)
			continue
		}
		if tc.native == "[" {
			if !strings.HasPrefix(p.native, "[") {
				t.Errorf("translate(%q, %q) = %q, want a class", tc.source, tc.flags, p.native)
			}
		} else if p.native != tc.native {
			t.Errorf("translate(%q, %q) = %q, want %q", tc.source, tc.flags, p.native, tc.native)
		}
		if p.nativeFlags != tc.natFlags || !reflect.DeepEqual(p.names, tc.names) {
			t.Errorf("translate(%q, %q): flags %q names %q, want %q %q", tc.source, tc.flags, p.nativeFlags, p.names, tc.natFlags, tc.names)
		}
	}
	for _, plain := range [][2]string{{`(a)(b)`, "g"}, {`(?<=a)b`, ""}, {`\p{L}`, ""}, {`a`, "u"}} {
		if _, err := translate(plain[0], plain[1]); !errors.Is(err, errPlain) {
			t.Errorf("translate(%q, %q) = %v, want errPlain", plain[0], plain[1], err)
		}
	}
	for _, bad := range [][2]string{{`(?<a>x)\k<b>`, ""}, {`\p{Foo}`, "u"}, {`a`, "gg"}, {`a`, "uv"}, {`[a&&&b]`, "v"}, {`(?<>x)`, ""}} {
		if _, err := translate(bad[0], bad[1]); err == nil || errors.Is(err, errPlain) {
			t.Errorf("translate(%q, %q) = %v, want a syntax error", bad[0], bad[1], err)
		}
	}
}

func TestParseFlags(t *testing.T) {
	for _, tc := range []struct{ in, want string }{{"", ""}, {"yusmigd", "dgimsuy"}, {"vg", "gv"}} {
		got, err := parseFlags(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseFlags(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestEscapeSource(t *testing.T) {
	for _, tc := range []struct{ in, want string }{{"", "(?:)"}, {"a/b", `a\/b`}, {`a\/b`, `a\/b`}, {"[/]", "[/]"}, {"a\nb", `a\nb`}} {
		if got := escapeSource(tc.in); got != tc.want {
			t.Errorf("escapeSource(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRuneSet(t *testing.T) {
	a := setOf(span{'a', 'f'}, span{'x', 'z'})
	b := setOf(span{'d', 'y'})
	for _, tc := range []struct {
		name string
		got  runeSet
		want runeSet
	}{
		{"union", a.union(b), runeSet{{'a', 'z'}}},
		{"intersect", a.intersect(b), runeSet{{'d', 'f'}, {'x', 'y'}}},
		{"minus", a.minus(b), runeSet{{'a', 'c'}, {'z', 'z'}}},
		{"complement", runeSet{{1, maxRune}}.complement(), runeSet{{0, 0}}},
		{"normalize merges adjacent", setOf(span{5, 6}, span{1, 4}, span{3, 3}), runeSet{{1, 6}}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestProperty(t *testing.T) {
	for _, tc := range []struct {
		body string
		in   []rune
		out  []rune
	}{
		{"L", []rune{'a', 'é', 'Ω', '日'}, []rune{'1', ' ', '😀'}},
		{"gc=Nd", []rune{'0', '٣'}, []rune{'a'}},
		{"Script=Greek", []rune{'Ω'}, []rune{'a'}},
		{"sc=Latn", []rune{'a'}, []rune{'Ω'}},
		{"Emoji", []rune{'😀', '#'}, []rune{'a'}},
		{"Extended_Pictographic", []rune{'😀', '©'}, []rune{'#'}},
		{"White_Space", []rune{' ', 0x3000}, []rune{'a'}},
		{"Alpha", []rune{'a', 'Ⅳ'}, []rune{'1'}},
		{"C", []rune{0, 0x0378}, []rune{'a'}},
		{"Any", []rune{0, maxRune}, nil},
		{"Changes_When_Uppercased", []rune{'a'}, []rune{'A'}},
	} {
		set, err := property(tc.body)
		if err != nil {
			t.Errorf("property(%q): %v", tc.body, err)
			continue
		}
		for _, r := range tc.in {
			if !set.contains(r) {
				t.Errorf("property(%q) lacks %U", tc.body, r)
			}
		}
		for _, r := range tc.out {
			if set.contains(r) {
				t.Errorf("property(%q) holds %U", tc.body, r)
			}
		}
	}
}
