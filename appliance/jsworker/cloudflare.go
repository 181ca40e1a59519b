package jsworker

import (
	_ "embed"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

var (
	//go:embed cloudflare.js
	cloudflareJS string
	//go:embed websocket.js
	websocketJS string
	//go:embed objects.js
	objectsJS string
)

// cloudflareExtension is the cloudflare:workers module and the glue the
// adapter calls handlers through. It runs last.
var cloudflareExtension = jsrt.Extension{
	Name:    "cloudflare",
	Install: installCloudflare,
	JS:      strings.Join([]string{cloudflareJS, websocketJS, objectsJS}, "\n"),
}

func installCloudflare(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	cf := rt.NewObject()
	host.Set("cloudflare", cf)
	cf.Set("waitUntil", func(c goja.FunctionCall) goja.Value {
		inv, ok := c.Argument(0).Export().(*invocation)
		if !ok {
			panic(rt.NewTypeError("waitUntil: not a context of this worker"))
		}
		inv.waitUntil(c.Argument(1))
		return goja.Undefined()
	})
	installQueueNatives(rt, cf)
	installSocketNatives(iso, cf)
	installObjectNatives(iso, cf)
	return nil
}
