// Package url is the jsworker extension for the URL Standard and the URL
// Pattern Standard: URL, URLSearchParams and URLPattern.
//
// URLs are parsed in Go by github.com/nlnwa/whatwg-url, with two rules of
// the current standard it predates applied on top: '^' is percent-encoded
// in paths, and the space that ends an opaque path right before its query
// or fragment is written %20. A URL object keeps the components the
// parser returned, so reading them costs no call into Go; a setter sends
// the href and the new value to Go and takes the new components.
// searchParams is live both ways: changing it rewrites the URL's query,
// and setting href or search refills it.
//
// URLPattern compiles and matches with github.com/dunglas/go-urlpattern.
//
// # What other preludes use
//
//   - internal.parseQuery(string) → [[name, value], ...]: the
//     application/x-www-form-urlencoded parser (form bodies).
//   - internal.serializeQuery([[name, value], ...]) → string and
//     internal.formEncode(string) → string: its serializer.
//   - internal.toUSVString(v) → string: String(v) with lone surrogates
//     replaced by U+FFFD, as WebIDL converts USVString arguments.
//
// # Differences
//
// A host with an "xn--" label that is not valid Punycode, or whose
// decoding is not a valid label, is rejected ("https://xn--/" is invalid),
// as the URL Standard did before 2024; browsers and workerd now accept
// some of them. An invalid URL throws TypeError `Invalid URL: "<input>"`
// with input (and base) properties, as Node.js does, where workerd says
// "Invalid URL string.". URL.createObjectURL and URL.revokeObjectURL are
// not defined.
//
// URLPattern's regular expression groups are Go regular expressions
// (RE2): lookahead, lookbehind and backreferences do not compile (a
// TypeError), and the v flag's set operations ([a-z--a]) are not
// supported. A group that did not take part in a match is undefined for a
// named group with the default pattern (":id?"), as the standard says,
// but "" for a wildcard or a group with its own regular expression
// ("(.*)?", "*?"). The groups of a component are listed in the order the
// pattern names them, unnamed ones first. URLPattern.compareComponent is
// not defined.
package url
