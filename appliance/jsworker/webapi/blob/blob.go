package blob

import (
	"embed"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Extension defines Blob, File and FormData, and the form codecs the
// fetch layer uses.
var Extension = jsrt.Extension{Name: "blob", Install: install, JS: prelude()}

//go:embed js/*.js
var sources embed.FS

// preludeOrder is the order of the prelude's files.
var preludeOrder = []string{"blob", "file", "formdata", "internal"}

func prelude() string {
	var b strings.Builder
	for _, name := range preludeOrder {
		src, err := sources.ReadFile("js/" + name + ".js")
		if err != nil {
			panic("blob: the prelude lacks js/" + name + ".js")
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
}
