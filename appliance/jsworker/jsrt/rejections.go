package jsrt

import (
	"errors"

	"github.com/dop251/goja"
)

// trackRejection keeps the promises rejected with no handler during a
// job; those still unhandled when it ends are logged.
func (i *Isolate) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		i.rejections = append(i.rejections, p)
	case goja.PromiseRejectionHandle:
		i.handled(p)
	}
}

// handled forgets p as an unhandled rejection.
func (i *Isolate) handled(p *goja.Promise) {
	for k, q := range i.rejections {
		if q == p {
			i.rejections = append(i.rejections[:k], i.rejections[k+1:]...)
			return
		}
	}
}

// flushRejections logs the rejections no handler took.
func (i *Isolate) flushRejections() {
	for _, p := range i.rejections {
		var e *Error
		// Describing the value may run its getters or toString, which
		// may throw: the rejection is then reported without them.
		if ex := i.rt.Try(func() { e = i.errorOf(p.Result(), nil) }); ex != nil {
			e = &Error{Name: "Error", Message: "a rejection whose value cannot be described (reading it threw)"}
		}
		i.log.ErrorContext(i.logContext(), "Uncaught (in promise) "+firstLine(e.Error()), "isolate", i.cfg.Name, "stack", e.Stack)
	}
	i.rejections = i.rejections[:0]
}

// uncaught logs an exception no JavaScript caught (in a timer, say).
func (i *Isolate) uncaught(err error) {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		return // the event is failed when the job ends
	}
	e := i.asError(err)
	stack := ""
	var je *Error
	if errors.As(e, &je) {
		stack = je.Stack
	}
	i.log.ErrorContext(i.logContext(), "Uncaught "+firstLine(e.Error()), "isolate", i.cfg.Name, "stack", stack)
}

func firstLine(s string) string {
	for k := 0; k < len(s); k++ {
		if s[k] == '\n' {
			return s[:k]
		}
	}
	return s
}
