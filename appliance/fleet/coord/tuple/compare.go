package tuple

import (
	"bytes"
	"cmp"
	"math"
	"strings"
)

// Compare orders keys part by part (see the package documentation) without
// encoding them: it returns -1, 0 or +1 as a sorts before, equal to or after
// b. For keys of valid parts it agrees with bytes.Compare of their
// encodings; parts of invalid types sort last, by nothing else.
func Compare(a, b Key) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := comparePart(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// Equal reports whether a and b are the same key.
func Equal(a, b Key) bool { return Compare(a, b) == 0 }

func comparePart(a, b any) int {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch x := a.(type) {
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case string:
		return strings.Compare(x, b.(string))
	case int64, int:
		return cmp.Compare(asInt(a), asInt(b))
	case float64:
		return compareFloat(x, b.(float64))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case y:
			return -1
		}
		return 1
	}
	return 0
}

func rank(p any) int {
	switch p.(type) {
	case []byte:
		return 0
	case string:
		return 1
	case int64, int:
		return 2
	case float64:
		return 3
	case bool:
		return 4
	}
	return 5
}

func asInt(p any) int64 {
	if v, ok := p.(int); ok {
		return int64(v)
	}
	return p.(int64)
}

// compareFloat is the total order of float parts: numeric, with -0 before
// +0 and every NaN equal to every other and after +Inf.
func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an || bn:
		return cmp.Compare(boolInt(an), boolInt(bn))
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return cmp.Compare(boolInt(!math.Signbit(a)), boolInt(!math.Signbit(b)))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
