package bundle

import "github.com/evanw/esbuild/pkg/api"

// target is the syntax level of the output: goja parses ES2022 (classes
// with private members and static blocks, BigInt literals, optional
// chaining, ??, logical assignment), so nothing of it is lowered; newer
// syntax (using declarations, decorators, the regexp v flag) is.
const target = api.ES2022

// unsupported lists what goja lacks within ES2022, for esbuild's
// Supported option. Each is a feature esbuild lowers, and each was seen to
// fail in goja: async generators and for await are syntax errors, so
// esbuild rewrites them with generators and promises; regexp literals
// with named groups (goja matches them but leaves .groups undefined),
// \p{...} escapes (goja parses them but never matches), the d flag and
// the v flag (syntax errors) become new RegExp(...) calls, so that the
// script parses and the runtime's RegExp can handle the pattern when it
// runs.
var unsupported = []string{
	"async-generator",
	"for-await",
	"regexp-named-capture-groups",
	"regexp-unicode-property-escapes",
	"regexp-match-indices",
	"regexp-set-notation",
}

// classFields are the features Options.LowerClassFields lowers.
var classFields = []string{"class-field", "class-static-field"}

// supported returns a fresh Supported map for esbuild; lowerFields adds
// classFields to what is lowered.
func supported(lowerFields bool) map[string]bool {
	m := make(map[string]bool, len(unsupported)+len(classFields))
	for _, f := range unsupported {
		m[f] = false
	}
	if lowerFields {
		for _, f := range classFields {
			m[f] = false
		}
	}
	return m
}
