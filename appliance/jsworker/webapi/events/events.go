package events

import (
	_ "embed"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// The prelude, in the order its parts depend on one another.
var (
	//go:embed domexception.js
	domExceptionJS string
	//go:embed event.js
	eventJS string
	//go:embed eventtarget.js
	eventTargetJS string
	//go:embed abort.js
	abortJS string
	//go:embed report.js
	reportJS string
)

// Extension defines DOMException, the Event classes, EventTarget,
// AbortController, AbortSignal and reportError. It has no natives: all of
// it is JavaScript.
var Extension = jsrt.Extension{
	Name: "events",
	JS:   strings.Join([]string{domExceptionJS, eventJS, eventTargetJS, abortJS, reportJS}, "\n"),
}
