package htmlrewriter

import (
	_ "embed"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

var (
	//go:embed tokens.js
	tokensJS string
	//go:embed run.js
	runJS string
	//go:embed rewriter.js
	rewriterJS string
)

// Extension installs HTMLRewriter and internal.rewriteHTML. transform()
// needs the fetch extension's Response and the streams extension's
// ReadableStream, which come before it; the rest works without them.
var Extension = jsrt.Extension{
	Name:    "htmlrewriter",
	Install: install,
	JS:      strings.Join([]string{tokensJS, runJS, rewriterJS}, "\n"),
}
