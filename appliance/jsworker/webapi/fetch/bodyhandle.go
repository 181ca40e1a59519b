package fetch

import (
	"io"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// BodyHandle is a handle on a body that Go reads from r, for other
// extensions' bodies (an R2 object's): JavaScript wraps it as
// new internal.Body(internal.bodyKinds.GO, handle), which reads it chunk
// by chunk through its stream or whole, as it reads a fetch response's.
// r is closed once read to its end, when JavaScript cancels the stream,
// or when ev ends, whichever comes first. Call it on the loop.
func BodyHandle(ev *jsrt.Event, r io.ReadCloser) goja.Value {
	gb := &goBody{r: r}
	ev.Defer(func() { gb.Close() })
	return ev.Isolate().Runtime().ToValue(gb)
}
