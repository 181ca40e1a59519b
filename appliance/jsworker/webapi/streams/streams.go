package streams

import (
	"embed"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Extension is the Streams standard and the stream classes built on it.
var Extension = jsrt.Extension{Name: "streams", Install: install, JS: prelude()}

//go:embed js/*.js
var sources embed.FS

// preludeOrder is the order of the prelude's files: each uses only what
// the ones before it define, except inside functions.
var preludeOrder = []string{
	"util", "readable", "bytes", "stream", "writable", "transform", "pipe", "tee", "iterate",
	"strategies", "text", "compression", "identity", "internal",
}

func prelude() string {
	var b strings.Builder
	for _, name := range preludeOrder {
		src, err := sources.ReadFile("js/" + name + ".js")
		if err != nil {
			panic("streams: the prelude lacks js/" + name + ".js")
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
}
