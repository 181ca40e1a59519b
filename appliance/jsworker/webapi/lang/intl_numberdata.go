package lang

// currencyInfo is how en-US shows a currency.
type currencyInfo struct {
	digits     int    // ISO 4217 minor units
	symbol     string // currencyDisplay "symbol"
	narrow     string // currencyDisplay "narrowSymbol"
	one, other string // currencyDisplay "name", by plural
}

// currencies are the currencies en-US has symbols or names for; any
// other valid code shows as itself with two digits.
var currencies = map[string]currencyInfo{
	"AED": {2, "AED", "AED", "UAE dirham", "UAE dirhams"},
	"ARS": {2, "ARS", "$", "Argentine peso", "Argentine pesos"},
	"AUD": {2, "A$", "$", "Australian dollar", "Australian dollars"},
	"BHD": {3, "BHD", "BHD", "Bahraini dinar", "Bahraini dinars"},
	"BRL": {2, "R$", "R$", "Brazilian real", "Brazilian reals"},
	"CAD": {2, "CA$", "$", "Canadian dollar", "Canadian dollars"},
	"CHF": {2, "CHF", "CHF", "Swiss franc", "Swiss francs"},
	"CLP": {0, "CLP", "$", "Chilean peso", "Chilean pesos"},
	"CNY": {2, "CN¥", "¥", "Chinese yuan", "Chinese yuan"},
	"COP": {2, "COP", "$", "Colombian peso", "Colombian pesos"},
	"CZK": {2, "CZK", "Kč", "Czech koruna", "Czech korunas"},
	"DKK": {2, "DKK", "kr", "Danish krone", "Danish kroner"},
	"EGP": {2, "EGP", "E£", "Egyptian pound", "Egyptian pounds"},
	"EUR": {2, "€", "€", "euro", "euros"},
	"GBP": {2, "£", "£", "British pound", "British pounds"},
	"HKD": {2, "HK$", "$", "Hong Kong dollar", "Hong Kong dollars"},
	"HUF": {2, "HUF", "Ft", "Hungarian forint", "Hungarian forints"},
	"IDR": {2, "IDR", "Rp", "Indonesian rupiah", "Indonesian rupiahs"},
	"ILS": {2, "₪", "₪", "Israeli new shekel", "Israeli new shekels"},
	"INR": {2, "₹", "₹", "Indian rupee", "Indian rupees"},
	"ISK": {0, "ISK", "kr", "Icelandic króna", "Icelandic krónur"},
	"JOD": {3, "JOD", "JOD", "Jordanian dinar", "Jordanian dinars"},
	"JPY": {0, "¥", "¥", "Japanese yen", "Japanese yen"},
	"KRW": {0, "₩", "₩", "South Korean won", "South Korean won"},
	"KWD": {3, "KWD", "KWD", "Kuwaiti dinar", "Kuwaiti dinars"},
	"MXN": {2, "MX$", "$", "Mexican peso", "Mexican pesos"},
	"MYR": {2, "MYR", "RM", "Malaysian ringgit", "Malaysian ringgits"},
	"NGN": {2, "NGN", "₦", "Nigerian naira", "Nigerian nairas"},
	"NOK": {2, "NOK", "kr", "Norwegian krone", "Norwegian kroner"},
	"NZD": {2, "NZ$", "$", "New Zealand dollar", "New Zealand dollars"},
	"OMR": {3, "OMR", "OMR", "Omani rial", "Omani rials"},
	"PHP": {2, "₱", "₱", "Philippine peso", "Philippine pesos"},
	"PKR": {2, "PKR", "Rs", "Pakistani rupee", "Pakistani rupees"},
	"PLN": {2, "PLN", "zł", "Polish zloty", "Polish zlotys"},
	"RUB": {2, "RUB", "₽", "Russian ruble", "Russian rubles"},
	"SAR": {2, "SAR", "SAR", "Saudi riyal", "Saudi riyals"},
	"SEK": {2, "SEK", "kr", "Swedish krona", "Swedish kronor"},
	"SGD": {2, "SGD", "$", "Singapore dollar", "Singapore dollars"},
	"THB": {2, "THB", "฿", "Thai baht", "Thai baht"},
	"TND": {3, "TND", "TND", "Tunisian dinar", "Tunisian dinars"},
	"TRY": {2, "TRY", "₺", "Turkish lira", "Turkish Lira"},
	"TWD": {2, "NT$", "$", "New Taiwan dollar", "New Taiwan dollars"},
	"UAH": {2, "UAH", "₴", "Ukrainian hryvnia", "Ukrainian hryvnias"},
	"USD": {2, "$", "$", "US dollar", "US dollars"},
	"VND": {0, "₫", "₫", "Vietnamese dong", "Vietnamese dong"},
	"XAF": {0, "FCFA", "FCFA", "Central African CFA franc", "Central African CFA francs"},
	"XOF": {0, "F\u202fCFA", "F\u202fCFA", "West African CFA franc", "West African CFA francs"},
	"ZAR": {2, "ZAR", "R", "South African rand", "South African rand"},
}

// currency returns how en-US shows code.
func currency(code string) currencyInfo {
	if c, ok := currencies[code]; ok {
		return c
	}
	return currencyInfo{2, code, code, code, code}
}

// unitInfo is how en-US shows a unit: patterns around {0}.
type unitInfo struct {
	short, narrow      string
	longOne, longOther string
}

// units are ECMA-402's sanctioned simple units.
var units = map[string]unitInfo{
	"acre":              {"{0} ac", "{0}ac", "{0} acre", "{0} acres"},
	"bit":               {"{0} bit", "{0}bit", "{0} bit", "{0} bits"},
	"byte":              {"{0} byte", "{0}B", "{0} byte", "{0} bytes"},
	"celsius":           {"{0}°C", "{0}°C", "{0} degree Celsius", "{0} degrees Celsius"},
	"centimeter":        {"{0} cm", "{0}cm", "{0} centimeter", "{0} centimeters"},
	"day":               {"{0} day|{0} days", "{0}d", "{0} day", "{0} days"},
	"degree":            {"{0} deg", "{0}°", "{0} degree", "{0} degrees"},
	"fahrenheit":        {"{0}°F", "{0}°", "{0} degree Fahrenheit", "{0} degrees Fahrenheit"},
	"fluid-ounce":       {"{0} fl oz", "{0}fl oz", "{0} fluid ounce", "{0} fluid ounces"},
	"foot":              {"{0} ft", "{0}′", "{0} foot", "{0} feet"},
	"gallon":            {"{0} gal", "{0}gal", "{0} gallon", "{0} gallons"},
	"gigabit":           {"{0} Gb", "{0}Gb", "{0} gigabit", "{0} gigabits"},
	"gigabyte":          {"{0} GB", "{0}GB", "{0} gigabyte", "{0} gigabytes"},
	"gram":              {"{0} g", "{0}g", "{0} gram", "{0} grams"},
	"hectare":           {"{0} ha", "{0}ha", "{0} hectare", "{0} hectares"},
	"hour":              {"{0} hr", "{0}h", "{0} hour", "{0} hours"},
	"inch":              {"{0} in", "{0}″", "{0} inch", "{0} inches"},
	"kilobit":           {"{0} kb", "{0}kb", "{0} kilobit", "{0} kilobits"},
	"kilobyte":          {"{0} kB", "{0}kB", "{0} kilobyte", "{0} kilobytes"},
	"kilogram":          {"{0} kg", "{0}kg", "{0} kilogram", "{0} kilograms"},
	"kilometer":         {"{0} km", "{0}km", "{0} kilometer", "{0} kilometers"},
	"liter":             {"{0} L", "{0}L", "{0} liter", "{0} liters"},
	"megabit":           {"{0} Mb", "{0}Mb", "{0} megabit", "{0} megabits"},
	"megabyte":          {"{0} MB", "{0}MB", "{0} megabyte", "{0} megabytes"},
	"meter":             {"{0} m", "{0}m", "{0} meter", "{0} meters"},
	"microsecond":       {"{0} μs", "{0}μs", "{0} microsecond", "{0} microseconds"},
	"mile":              {"{0} mi", "{0}mi", "{0} mile", "{0} miles"},
	"mile-scandinavian": {"{0} smi", "{0}smi", "{0} mile-scandinavian", "{0} miles-scandinavian"},
	"milliliter":        {"{0} mL", "{0}mL", "{0} milliliter", "{0} milliliters"},
	"millimeter":        {"{0} mm", "{0}mm", "{0} millimeter", "{0} millimeters"},
	"millisecond":       {"{0} ms", "{0}ms", "{0} millisecond", "{0} milliseconds"},
	"minute":            {"{0} min", "{0}m", "{0} minute", "{0} minutes"},
	"month":             {"{0} mth|{0} mths", "{0}m", "{0} month", "{0} months"},
	"nanosecond":        {"{0} ns", "{0}ns", "{0} nanosecond", "{0} nanoseconds"},
	"ounce":             {"{0} oz", "{0}oz", "{0} ounce", "{0} ounces"},
	"percent":           {"{0}%", "{0}%", "{0} percent", "{0} percent"},
	"petabyte":          {"{0} PB", "{0}PB", "{0} petabyte", "{0} petabytes"},
	"pound":             {"{0} lb", "{0}lb", "{0} pound", "{0} pounds"},
	"second":            {"{0} sec", "{0}s", "{0} second", "{0} seconds"},
	"stone":             {"{0} st", "{0}st", "{0} stone", "{0} stones"},
	"terabit":           {"{0} Tb", "{0}Tb", "{0} terabit", "{0} terabits"},
	"terabyte":          {"{0} TB", "{0}TB", "{0} terabyte", "{0} terabytes"},
	"week":              {"{0} wk|{0} wks", "{0}w", "{0} week", "{0} weeks"},
	"yard":              {"{0} yd", "{0}yd", "{0} yard", "{0} yards"},
	"year":              {"{0} yr|{0} yrs", "{0}y", "{0} year", "{0} years"},
}

// perUnits are the short forms of time units after a slash.
var perUnits = map[string]string{"second": "s", "minute": "min", "hour": "h", "day": "d", "week": "w", "month": "m", "year": "y"}

// unitPattern returns the pattern for unit (a simple unit or X-per-Y) in
// display (short, narrow, long) for a plural category.
func unitPattern(unit, display string, one bool) string {
	if num, den, ok := splitPer(unit); ok {
		switch unit {
		case "kilometer-per-hour":
			return pick(display, "{0} km/h", "{0}km/h", "{0} kilometer per hour", "{0} kilometers per hour", one)
		case "mile-per-hour":
			return pick(display, "{0} mph", "{0}mph", "{0} mile per hour", "{0} miles per hour", one)
		}
		n := unitPattern(num, display, one)
		if display == "long" {
			return n + " per " + trimPlaceholder(unitPattern(den, display, true))
		}
		if short, ok := perUnits[den]; ok {
			return n + "/" + short
		}
		return n + "/" + trimPlaceholder(unitPattern(den, display, true))
	}
	u := units[unit]
	return pick(display, u.short, u.narrow, u.longOne, u.longOther, one)
}

func pick(display, short, narrow, longOne, longOther string, one bool) string {
	var p string
	switch display {
	case "narrow":
		p = narrow
	case "long":
		if one {
			return longOne
		}
		return longOther
	default:
		p = short
	}
	if a, b, ok := cutPipe(p); ok {
		if one {
			return a
		}
		return b
	}
	return p
}

func cutPipe(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '|' {
			return s[:i], s[i+1:], true
		}
	}
	return s, s, false
}

// trimPlaceholder is a unit pattern without {0} and the space next to it.
func trimPlaceholder(p string) string {
	for i := 0; i+3 <= len(p); i++ {
		if p[i:i+3] == "{0}" {
			out := p[:i] + p[i+3:]
			for len(out) > 0 && out[0] == ' ' {
				out = out[1:]
			}
			return out
		}
	}
	return p
}

func splitPer(unit string) (string, string, bool) {
	for i := 0; i+5 <= len(unit); i++ {
		if unit[i:i+5] == "-per-" {
			return unit[:i], unit[i+5:], true
		}
	}
	return "", "", false
}

// isUnit reports whether unit is a sanctioned simple unit or X-per-Y of
// two.
func isUnit(unit string) bool {
	if num, den, ok := splitPer(unit); ok {
		_, a := units[num]
		_, b := units[den]
		return a && b
	}
	_, ok := units[unit]
	return ok
}
