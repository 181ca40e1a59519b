package jsworker

import (
	"net/http"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
)

// serveWebSocket accepts the WebSocket a handler returned.
func (v *version) serveWebSocket(rw http.ResponseWriter, r *http.Request, ev *jsrt.Event, out *fetch.Outgoing) {
	http.Error(rw, "WebSockets are not supported yet", http.StatusNotImplemented)
}
