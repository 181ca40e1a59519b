package fetch

import (
	_ "embed"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

var (
	//go:embed headers.js
	headersJS string
	//go:embed body.js
	bodyJS string
	//go:embed request.js
	requestJS string
	//go:embed response.js
	responseJS string
	//go:embed fetch.js
	fetchJS string
)

// Extension installs Headers, Request, Response and fetch. It needs the
// streams, encoding, blob and url extensions before it.
var Extension = jsrt.Extension{
	Name:    "fetch",
	Install: install,
	JS:      strings.Join([]string{headersJS, bodyJS, requestJS, responseJS, fetchJS}, "\n"),
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	f := rt.NewObject()
	host.Set("fetch", f)
	installBodies(iso, f)
	installClient(iso, f)
	f.Set("headersOf", func(c goja.FunctionCall) goja.Value {
		in, ok := c.Argument(0).Export().(*Incoming)
		if !ok {
			panic(rt.NewTypeError("headersOf: not an incoming request"))
		}
		return flatHeaders(rt, in.R.Header)
	})
	f.Set("cfOf", func(c goja.FunctionCall) goja.Value {
		in, ok := c.Argument(0).Export().(*Incoming)
		if !ok {
			return goja.Undefined()
		}
		cf := rt.NewObject()
		cf.Set("httpProtocol", in.R.Proto)
		return cf
	})
	return nil
}
