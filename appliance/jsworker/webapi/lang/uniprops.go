package lang

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
)

// property resolves the inside of \p{...}: a General_Category value
// (gc=, General_Category=, or alone), a script (sc=, Script=; scx= and
// Script_Extensions= are answered with the script), or a binary
// property, with ECMAScript's exact, case-sensitive names. Sets are
// computed from Go's unicode tables once per process.
func property(body string) (runeSet, error) {
	name, value, hasValue := strings.Cut(body, "=")
	if !hasValue {
		if short, ok := gcAliases[name]; ok {
			return category(short), nil
		}
		if strings.HasPrefix(name, "RGI_Emoji") || name == "Basic_Emoji" || name == "Emoji_Keycap_Sequence" {
			return nil, fmt.Errorf("the property of strings \\p{%s} is not supported", name)
		}
		if canonical, ok := binaryAliases[name]; ok {
			name = canonical
		}
		if _, ok := binaryProps[name]; ok {
			return cached("b:"+name, binaryProps[name]), nil
		}
		if unsupportedProps[name] {
			return nil, fmt.Errorf("the Unicode property \\p{%s} is not supported", name)
		}
		return nil, fmt.Errorf("invalid property name \\p{%s}", body)
	}
	switch name {
	case "General_Category", "gc":
		if short, ok := gcAliases[value]; ok {
			return category(short), nil
		}
	case "Script", "sc", "Script_Extensions", "scx":
		if long, ok := scriptAliases[value]; ok {
			value = long
		}
		if value == "Unknown" {
			return cached("sc:Unknown", unknownScript), nil
		}
		if t, ok := unicode.Scripts[value]; ok {
			return cached("sc:"+value, func() runeSet { return fromTable(t) }), nil
		}
	default:
		return nil, fmt.Errorf("invalid property name \\p{%s}", body)
	}
	return nil, fmt.Errorf("invalid property value \\p{%s}", body)
}

var (
	setsMu sync.Mutex
	sets   = map[string]runeSet{}
)

// cached returns the set named key, computing it with make the first
// time.
func cached(key string, make func() runeSet) runeSet {
	setsMu.Lock()
	s, ok := sets[key]
	setsMu.Unlock()
	if ok {
		return s
	}
	s = make()
	setsMu.Lock()
	sets[key] = s
	setsMu.Unlock()
	return s
}

// category is a General_Category by its short name. C includes the
// unassigned code points (Cn), as in ECMAScript.
func category(short string) runeSet {
	return cached("gc:"+short, func() runeSet {
		if short == "C" {
			return category("Cc").union(category("Cf")).union(category("Cs")).union(category("Co")).union(category("Cn"))
		}
		return fromTable(unicode.Categories[short])
	})
}

func table(name string) runeSet {
	return cached("t:"+name, func() runeSet { return fromTable(unicode.Properties[name]) })
}

func unknownScript() runeSet {
	var all runeSet
	for _, t := range unicode.Scripts {
		all = all.union(fromTable(t))
	}
	return all.complement()
}

// changes returns the code points that f maps to something else.
func changes(f func(rune) rune) runeSet {
	var s []span
	for r := rune(0); r <= maxRune; r++ {
		if f(r) != r {
			s = append(s, span{r, r})
		}
	}
	return normalize(s)
}

func idStart() runeSet {
	return category("L").union(category("Nl")).union(table("Other_ID_Start")).
		minus(table("Pattern_Syntax")).minus(table("Pattern_White_Space"))
}

func idContinue() runeSet {
	return idStart().union(category("Mn")).union(category("Mc")).union(category("Nd")).union(category("Pc")).
		union(table("Other_ID_Continue")).minus(table("Pattern_Syntax")).minus(table("Pattern_White_Space"))
}

// binaryProps are the binary properties ECMAScript names, by their long
// names. Those Go has no table for are derived as UAX #44 defines them;
// see the package doc for the approximations.
var binaryProps = map[string]func() runeSet{
	"Any":             func() runeSet { return runeSet{{0, maxRune}} },
	"ASCII":           func() runeSet { return runeSet{{0, 0x7F}} },
	"Assigned":        func() runeSet { return category("Cn").complement() },
	"ASCII_Hex_Digit": func() runeSet { return table("ASCII_Hex_Digit") },
	"Alphabetic":      func() runeSet { return category("L").union(category("Nl")).union(table("Other_Alphabetic")) },
	"Bidi_Control":    func() runeSet { return table("Bidi_Control") },
	"Case_Ignorable":  caseIgnorable,
	"Cased":           func() runeSet { return category("LC").union(table("Other_Uppercase")).union(table("Other_Lowercase")) },
	"Changes_When_Casefolded": func() runeSet {
		return changes(func(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }).union(changes(unicode.ToLower))
	},
	"Changes_When_Casemapped": func() runeSet {
		return changes(unicode.ToLower).union(changes(unicode.ToUpper)).union(changes(unicode.ToTitle))
	},
	"Changes_When_Lowercased":      func() runeSet { return changes(unicode.ToLower) },
	"Changes_When_Titlecased":      func() runeSet { return changes(unicode.ToTitle) },
	"Changes_When_Uppercased":      func() runeSet { return changes(unicode.ToUpper) },
	"Dash":                         func() runeSet { return table("Dash") },
	"Default_Ignorable_Code_Point": defaultIgnorable,
	"Deprecated":                   func() runeSet { return table("Deprecated") },
	"Diacritic":                    func() runeSet { return table("Diacritic") },
	"Emoji":                        func() runeSet { return emojiPresentation.union(emojiText) },
	"Emoji_Component":              func() runeSet { return emojiComponent },
	"Emoji_Modifier":               func() runeSet { return emojiModifier },
	"Emoji_Modifier_Base":          func() runeSet { return emojiModifierBase },
	"Emoji_Presentation":           func() runeSet { return emojiPresentation },
	"Extended_Pictographic":        func() runeSet { return extendedPictographic },
	"Extender":                     func() runeSet { return table("Extender") },
	"Grapheme_Base":                graphemeBase,
	"Grapheme_Extend":              graphemeExtend,
	"Hex_Digit":                    func() runeSet { return table("Hex_Digit") },
	"IDS_Binary_Operator":          func() runeSet { return table("IDS_Binary_Operator") },
	"IDS_Trinary_Operator":         func() runeSet { return table("IDS_Trinary_Operator") },
	"ID_Continue":                  idContinue,
	"ID_Start":                     idStart,
	"Ideographic":                  func() runeSet { return table("Ideographic") },
	"Join_Control":                 func() runeSet { return table("Join_Control") },
	"Logical_Order_Exception":      func() runeSet { return table("Logical_Order_Exception") },
	"Lowercase":                    func() runeSet { return category("Ll").union(table("Other_Lowercase")) },
	"Math":                         func() runeSet { return category("Sm").union(table("Other_Math")) },
	"Noncharacter_Code_Point":      func() runeSet { return table("Noncharacter_Code_Point") },
	"Pattern_Syntax":               func() runeSet { return table("Pattern_Syntax") },
	"Pattern_White_Space":          func() runeSet { return table("Pattern_White_Space") },
	"Quotation_Mark":               func() runeSet { return table("Quotation_Mark") },
	"Radical":                      func() runeSet { return table("Radical") },
	"Regional_Indicator":           func() runeSet { return table("Regional_Indicator") },
	"Sentence_Terminal":            func() runeSet { return table("Sentence_Terminal") },
	"Soft_Dotted":                  func() runeSet { return table("Soft_Dotted") },
	"Terminal_Punctuation":         func() runeSet { return table("Terminal_Punctuation") },
	"Unified_Ideograph":            func() runeSet { return table("Unified_Ideograph") },
	"Uppercase":                    func() runeSet { return category("Lu").union(table("Other_Uppercase")) },
	"Variation_Selector":           func() runeSet { return table("Variation_Selector") },
	"White_Space":                  func() runeSet { return table("White_Space") },
	"XID_Continue":                 idContinue,
	"XID_Start":                    idStart,
}

// unsupportedProps are ECMAScript's binary properties this package has no
// data for.
var unsupportedProps = map[string]bool{
	"Bidi_Mirrored": true, "Bidi_M": true,
	"Changes_When_NFKC_Casefolded": true, "CWKCF": true,
}

func caseIgnorable() runeSet {
	// Mn, Me, Cf, Lm, Sk and the Word_Break MidLetter, MidNumLet and
	// Single_Quote characters.
	mid := setOf(span{0x27, 0x27}, span{0x2E, 0x2E}, span{0x3A, 0x3A}, span{0xB7, 0xB7}, span{0x387, 0x387},
		span{0x55F, 0x55F}, span{0x5F4, 0x5F4}, span{0x2018, 0x2019}, span{0x2024, 0x2024}, span{0x2027, 0x2027},
		span{0xFE13, 0xFE13}, span{0xFE52, 0xFE52}, span{0xFE55, 0xFE55}, span{0xFF07, 0xFF07}, span{0xFF0E, 0xFF0E},
		span{0xFF1A, 0xFF1A})
	return category("Mn").union(category("Me")).union(category("Cf")).union(category("Lm")).union(category("Sk")).union(mid)
}

func defaultIgnorable() runeSet {
	return table("Other_Default_Ignorable_Code_Point").union(category("Cf")).union(table("Variation_Selector")).
		minus(table("White_Space")).minus(runeSet{{0xFFF9, 0xFFFB}, {0x13430, 0x1343F}}).
		minus(table("Prepended_Concatenation_Mark"))
}

func graphemeExtend() runeSet {
	return category("Mn").union(category("Me")).union(table("Other_Grapheme_Extend"))
}

func graphemeBase() runeSet {
	return category("Cn").union(category("Cc")).union(category("Cf")).union(category("Cs")).union(category("Co")).
		union(category("Zl")).union(category("Zp")).union(graphemeExtend()).complement()
}

var binaryAliases = map[string]string{
	"Alpha": "Alphabetic", "AHex": "ASCII_Hex_Digit", "Bidi_C": "Bidi_Control", "CI": "Case_Ignorable",
	"CWCF": "Changes_When_Casefolded", "CWCM": "Changes_When_Casemapped", "CWL": "Changes_When_Lowercased",
	"CWT": "Changes_When_Titlecased", "CWU": "Changes_When_Uppercased", "DI": "Default_Ignorable_Code_Point",
	"Dep": "Deprecated", "Dia": "Diacritic", "EBase": "Emoji_Modifier_Base", "EComp": "Emoji_Component",
	"EMod": "Emoji_Modifier", "EPres": "Emoji_Presentation", "ExtPict": "Extended_Pictographic", "Ext": "Extender",
	"Gr_Base": "Grapheme_Base", "Gr_Ext": "Grapheme_Extend", "Hex": "Hex_Digit", "IDC": "ID_Continue",
	"IDS": "ID_Start", "IDSB": "IDS_Binary_Operator", "IDST": "IDS_Trinary_Operator", "Ideo": "Ideographic",
	"Join_C": "Join_Control", "LOE": "Logical_Order_Exception", "Lower": "Lowercase", "NChar": "Noncharacter_Code_Point",
	"Pat_Syn": "Pattern_Syntax", "Pat_WS": "Pattern_White_Space", "QMark": "Quotation_Mark", "RI": "Regional_Indicator",
	"SD": "Soft_Dotted", "STerm": "Sentence_Terminal", "Term": "Terminal_Punctuation", "UIdeo": "Unified_Ideograph",
	"Upper": "Uppercase", "VS": "Variation_Selector", "WSpace": "White_Space", "space": "White_Space",
	"XIDC": "XID_Continue", "XIDS": "XID_Start",
}

// gcAliases maps every General_Category name and alias to Go's short
// name.
var gcAliases = map[string]string{
	"C": "C", "Other": "C", "Cc": "Cc", "Control": "Cc", "cntrl": "Cc", "Cf": "Cf", "Format": "Cf",
	"Cn": "Cn", "Unassigned": "Cn", "Co": "Co", "Private_Use": "Co", "Cs": "Cs", "Surrogate": "Cs",
	"L": "L", "Letter": "L", "LC": "LC", "Cased_Letter": "LC", "Ll": "Ll", "Lowercase_Letter": "Ll",
	"Lm": "Lm", "Modifier_Letter": "Lm", "Lo": "Lo", "Other_Letter": "Lo", "Lt": "Lt", "Titlecase_Letter": "Lt",
	"Lu": "Lu", "Uppercase_Letter": "Lu", "M": "M", "Mark": "M", "Combining_Mark": "M", "Mc": "Mc",
	"Spacing_Mark": "Mc", "Me": "Me", "Enclosing_Mark": "Me", "Mn": "Mn", "Nonspacing_Mark": "Mn",
	"N": "N", "Number": "N", "Nd": "Nd", "Decimal_Number": "Nd", "digit": "Nd", "Nl": "Nl", "Letter_Number": "Nl",
	"No": "No", "Other_Number": "No", "P": "P", "Punctuation": "P", "punct": "P", "Pc": "Pc",
	"Connector_Punctuation": "Pc", "Pd": "Pd", "Dash_Punctuation": "Pd", "Pe": "Pe", "Close_Punctuation": "Pe",
	"Pf": "Pf", "Final_Punctuation": "Pf", "Pi": "Pi", "Initial_Punctuation": "Pi", "Po": "Po",
	"Other_Punctuation": "Po", "Ps": "Ps", "Open_Punctuation": "Ps", "S": "S", "Symbol": "S", "Sc": "Sc",
	"Currency_Symbol": "Sc", "Sk": "Sk", "Modifier_Symbol": "Sk", "Sm": "Sm", "Math_Symbol": "Sm",
	"So": "So", "Other_Symbol": "So", "Z": "Z", "Separator": "Z", "Zl": "Zl", "Line_Separator": "Zl",
	"Zp": "Zp", "Paragraph_Separator": "Zp", "Zs": "Zs", "Space_Separator": "Zs",
}

// scriptAliases maps ISO 15924 codes to the long script names Go's
// unicode.Scripts uses.
var scriptAliases = map[string]string{
	"Adlm": "Adlam", "Aghb": "Caucasian_Albanian", "Arab": "Arabic", "Armi": "Imperial_Aramaic", "Armn": "Armenian",
	"Avst": "Avestan", "Bali": "Balinese", "Bamu": "Bamum", "Bass": "Bassa_Vah", "Batk": "Batak", "Beng": "Bengali",
	"Bhks": "Bhaiksuki", "Bopo": "Bopomofo", "Brah": "Brahmi", "Brai": "Braille", "Bugi": "Buginese", "Buhd": "Buhid",
	"Cakm": "Chakma", "Cans": "Canadian_Aboriginal", "Cari": "Carian", "Cher": "Cherokee", "Chrs": "Chorasmian",
	"Copt": "Coptic", "Qaac": "Coptic", "Cpmn": "Cypro_Minoan", "Cprt": "Cypriot", "Cyrl": "Cyrillic",
	"Deva": "Devanagari", "Diak": "Dives_Akuru", "Dogr": "Dogra", "Dsrt": "Deseret", "Dupl": "Duployan",
	"Egyp": "Egyptian_Hieroglyphs", "Elba": "Elbasan", "Elym": "Elymaic", "Ethi": "Ethiopic", "Geor": "Georgian",
	"Glag": "Glagolitic", "Gong": "Gunjala_Gondi", "Gonm": "Masaram_Gondi", "Goth": "Gothic", "Gran": "Grantha",
	"Grek": "Greek", "Gujr": "Gujarati", "Guru": "Gurmukhi", "Hang": "Hangul", "Hani": "Han", "Hano": "Hanunoo",
	"Hatr": "Hatran", "Hebr": "Hebrew", "Hira": "Hiragana", "Hluw": "Anatolian_Hieroglyphs", "Hmng": "Pahawh_Hmong",
	"Hmnp": "Nyiakeng_Puachue_Hmong", "Hung": "Old_Hungarian", "Ital": "Old_Italic", "Java": "Javanese",
	"Kali": "Kayah_Li", "Kana": "Katakana", "Khar": "Kharoshthi", "Khmr": "Khmer", "Khoj": "Khojki",
	"Kits": "Khitan_Small_Script", "Knda": "Kannada", "Kthi": "Kaithi", "Lana": "Tai_Tham", "Laoo": "Lao",
	"Latn": "Latin", "Lepc": "Lepcha", "Limb": "Limbu", "Lina": "Linear_A", "Linb": "Linear_B", "Lyci": "Lycian",
	"Lydi": "Lydian", "Mahj": "Mahajani", "Maka": "Makasar", "Mand": "Mandaic", "Mani": "Manichaean",
	"Marc": "Marchen", "Medf": "Medefaidrin", "Mend": "Mende_Kikakui", "Merc": "Meroitic_Cursive",
	"Mero": "Meroitic_Hieroglyphs", "Mlym": "Malayalam", "Mong": "Mongolian", "Mroo": "Mro", "Mtei": "Meetei_Mayek",
	"Mult": "Multani", "Mymr": "Myanmar", "Nagm": "Nag_Mundari", "Nand": "Nandinagari", "Narb": "Old_North_Arabian",
	"Nbat": "Nabataean", "Nkoo": "Nko", "Nshu": "Nushu", "Ogam": "Ogham", "Olck": "Ol_Chiki", "Orkh": "Old_Turkic",
	"Orya": "Oriya", "Osge": "Osage", "Osma": "Osmanya", "Ougr": "Old_Uyghur", "Palm": "Palmyrene",
	"Pauc": "Pau_Cin_Hau", "Perm": "Old_Permic", "Phag": "Phags_Pa", "Phli": "Inscriptional_Pahlavi",
	"Phlp": "Psalter_Pahlavi", "Phnx": "Phoenician", "Plrd": "Miao", "Prti": "Inscriptional_Parthian",
	"Rjng": "Rejang", "Rohg": "Hanifi_Rohingya", "Runr": "Runic", "Samr": "Samaritan", "Sarb": "Old_South_Arabian",
	"Saur": "Saurashtra", "Sgnw": "SignWriting", "Shaw": "Shavian", "Shrd": "Sharada", "Sidd": "Siddham",
	"Sind": "Khudawadi", "Sinh": "Sinhala", "Sogd": "Sogdian", "Sogo": "Old_Sogdian", "Sora": "Sora_Sompeng",
	"Soyo": "Soyombo", "Sund": "Sundanese", "Sylo": "Syloti_Nagri", "Syrc": "Syriac", "Tagb": "Tagbanwa",
	"Takr": "Takri", "Tale": "Tai_Le", "Talu": "New_Tai_Lue", "Taml": "Tamil", "Tang": "Tangut", "Tavt": "Tai_Viet",
	"Telu": "Telugu", "Tfng": "Tifinagh", "Tglg": "Tagalog", "Thaa": "Thaana", "Tibt": "Tibetan", "Tirh": "Tirhuta",
	"Tnsa": "Tangsa", "Ugar": "Ugaritic", "Vaii": "Vai", "Vith": "Vithkuqi", "Wara": "Warang_Citi", "Wcho": "Wancho",
	"Xpeo": "Old_Persian", "Xsux": "Cuneiform", "Yezi": "Yezidi", "Yiii": "Yi", "Zanb": "Zanabazar_Square",
	"Zinh": "Inherited", "Qaai": "Inherited", "Zyyy": "Common", "Zzzz": "Unknown",
}
