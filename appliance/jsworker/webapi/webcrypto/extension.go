package webcrypto

import (
	_ "embed"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

var (
	//go:embed algorithms.js
	algorithmsJS string
	//go:embed key.js
	keyJS string
	//go:embed subtle.js
	subtleJS string
	//go:embed crypto.js
	cryptoJS string
)

// Extension defines crypto, Crypto, SubtleCrypto and CryptoKey. It needs
// the events extension before it for DOMException (without it errors are
// Errors with the DOMException's name), and the streams extension for
// crypto.DigestStream.
var Extension = jsrt.Extension{
	Name:    "webcrypto",
	Install: install,
	JS:      algorithmsJS + "\n" + keyJS + "\n" + subtleJS + "\n" + cryptoJS,
}
