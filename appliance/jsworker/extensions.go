package jsworker

import (
	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/blob"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/jsworker/webapi/htmlrewriter"
	"github.com/dwk/fleet/appliance/jsworker/webapi/lang"
	"github.com/dwk/fleet/appliance/jsworker/webapi/node"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
	"github.com/dwk/fleet/appliance/jsworker/webapi/wasm"
	"github.com/dwk/fleet/appliance/jsworker/webapi/webcrypto"
)

// extensions are the globals of a worker's isolates, in the order their
// preludes run; node adds the Node.js modules (nodejs_compat).
func extensions(node bool) []jsrt.Extension {
	exts := []jsrt.Extension{
		lang.Extension,
		events.Extension,
		encoding.Extension,
		url.Extension,
		clone.Extension,
		streams.Extension,
		blob.Extension,
		webcrypto.Extension,
		fetch.Extension,
		htmlrewriter.Extension,
		wasm.Extension,
		jsbind.Extension,
	}
	if node {
		exts = append(exts, nodeExtension)
	}
	return append(exts, cloudflareExtension)
}

var nodeExtension = node.Extension
