package dashboard

import (
	"strings"
)

// notMetrics are the PromQL functions, aggregations and keywords: the
// identifiers of an expression that are not metric names.
var notMetrics = set(
	// aggregations
	"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio",
	// functions
	"abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh", "avg_over_time", "ceil", "changes", "clamp",
	"clamp_max", "clamp_min", "cos", "cosh", "count_over_time", "day_of_month", "day_of_week", "day_of_year", "days_in_month", "deg",
	"delta", "deriv", "exp", "floor", "group_over_time", "histogram_avg", "histogram_count", "histogram_fraction", "histogram_quantile",
	"histogram_stddev", "histogram_stdvar", "histogram_sum", "holt_winters", "double_exponential_smoothing", "hour", "idelta", "increase",
	"irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2", "mad_over_time", "max_over_time", "min_over_time",
	"minute", "month", "pi", "predict_linear", "present_over_time", "quantile_over_time", "rad", "rate", "resets", "round", "scalar", "sgn",
	"sin", "sinh", "sort", "sort_by_label", "sort_by_label_desc", "sort_desc", "sqrt", "stddev_over_time", "stdvar_over_time",
	"sum_over_time", "tan", "tanh", "time", "timestamp", "vector", "year",
	// keywords and binary operators
	"bool", "offset", "and", "or", "unless", "atan2", "inf", "nan", "start", "end",
)

// groupings take a parenthesised list of label names.
var groupings = set("by", "without", "on", "ignoring", "group_left", "group_right")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// MetricNames returns the metric names expr selects, in order of first
// appearance. It skips string literals, label matchers ({…}), ranges
// ([…]), Grafana variables ($name, ${name}), numbers and durations, the
// label lists of by, without, on, ignoring and group_left/right, function
// calls' names, and keywords: what is left is a metric name.
func MetricNames(expr string) []string {
	names, _ := scan(expr)
	return names
}

// UnknownCalls returns the names expr calls that are no PromQL function
// or aggregation.
func UnknownCalls(expr string) []string {
	_, unknown := scan(expr)
	return unknown
}

// scan tokenizes expr into the metric names it selects and the unknown
// functions it calls.
func scan(expr string) (names, unknown []string) {
	seen := map[string]bool{}
	s := expr
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(s, i)
		case c == '{':
			i = skipTo(s, i, '}')
		case c == '[':
			i = skipTo(s, i, ']')
		case c == '$':
			i++
			if i < len(s) && s[i] == '{' {
				i = skipTo(s, i, '}')
			} else {
				for i < len(s) && isIdent(s[i], true) {
					i++
				}
			}
		case c >= '0' && c <= '9' || c == '.':
			for i < len(s) && (isIdent(s[i], true) || s[i] == '.' || (s[i] == '+' || s[i] == '-') && (s[i-1] == 'e' || s[i-1] == 'E')) {
				i++
			}
		case isIdent(c, false):
			j := i
			for j < len(s) && isIdent(s[j], true) {
				j++
			}
			word := s[i:j]
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
				k++
			}
			next := byte(0)
			if k < len(s) {
				next = s[k]
			}
			lower := strings.ToLower(word)
			switch {
			case groupings[lower]:
				if next == '(' {
					j = skipTo(s, k, ')')
				}
			case next == '(' && !notMetrics[lower]:
				unknown = append(unknown, word)
			case next == '(' || notMetrics[lower]:
			default:
				if !seen[word] {
					seen[word] = true
					names = append(names, word)
				}
			}
			i = j
		default:
			i++
		}
	}
	return names, unknown
}

func isIdent(c byte, rest bool) bool {
	return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || rest && c >= '0' && c <= '9'
}

// skipString returns the index after the string literal starting at i.
func skipString(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q != '`':
			i++
		case s[i] == q:
			return i + 1
		}
	}
	return i
}

// skipTo returns the index after the close that ends the bracket opened at
// i, skipping string literals on the way.
func skipTo(s string, i int, close byte) int {
	for i++; i < len(s); {
		switch {
		case s[i] == '"' || s[i] == '\'' || s[i] == '`':
			i = skipString(s, i)
		case s[i] == close:
			return i + 1
		default:
			i++
		}
	}
	return i
}
