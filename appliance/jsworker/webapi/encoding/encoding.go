package encoding

import (
	_ "embed"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

//go:embed encoding.js
var encodingJS string

// Extension defines TextEncoder, TextDecoder, atob and btoa, and the byte
// conversions other preludes share (see the package doc).
var Extension = jsrt.Extension{Name: "encoding", Install: install, JS: encodingJS}
