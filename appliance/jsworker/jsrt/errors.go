package jsrt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// Error is an exception thrown by JavaScript and not caught.
type Error struct {
	// Name is the error's name ("TypeError"), or "" for a thrown value
	// that is not an Error.
	Name string
	// Message is the error's message, or the thrown value as a string.
	Message string
	// Stack is the stack trace as JavaScript shows it, with positions in
	// the original sources when the script came with a source map.
	Stack string
	// Value is the thrown value. Use it only on its isolate's loop.
	Value goja.Value
}

func (e *Error) Error() string {
	if e.Stack != "" {
		return e.Stack
	}
	if e.Name != "" {
		return e.Name + ": " + e.Message
	}
	return "Uncaught " + e.Message
}

// errorOf describes the thrown value v; exc, when set, is the exception
// goja raised with it, whose stack is used when v carries none.
func (i *Isolate) errorOf(v goja.Value, exc *goja.Exception) *Error {
	e := &Error{Value: v}
	if o, ok := v.(*goja.Object); ok && isError(i.rt, o) {
		e.Name = stringProp(o, "name")
		e.Message = stringProp(o, "message")
		e.Stack = stringProp(o, "stack")
	} else if v != nil {
		e.Message = v.String()
	}
	if e.Stack == "" && exc != nil {
		e.Stack = strings.TrimSpace(exc.String())
	}
	return e
}

func isError(rt *goja.Runtime, o *goja.Object) bool {
	ctor, ok := rt.Get("Error").(*goja.Object)
	return ok && o.ClassName() == "Error" || ok && rt.InstanceOf(o, ctor)
}

func stringProp(o *goja.Object, name string) string {
	v := o.Get(name)
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

// ErrorValue is the JavaScript value to reject or throw for err: the
// thrown value itself for an *Error of this isolate, an Error of the same
// name for another *Error, a DOMException-style error for a *DOMError,
// else an Error with err's text. Call it on the loop.
func (i *Isolate) ErrorValue(err error) goja.Value {
	var je *Error
	if errors.As(err, &je) {
		if je.Value != nil {
			return je.Value
		}
		return i.newError(je.Name, je.Message)
	}
	var te *TypedError
	if errors.As(err, &te) {
		if te.DOM || !isErrorClass(te.Name) {
			if v, ok := i.newDOMException(te.Name, te.Message); ok {
				return v
			}
		}
		return i.newError(te.Name, te.Message)
	}
	return i.newError("Error", err.Error())
}

// newError constructs the global error class name (Error if there is
// none) with message.
func (i *Isolate) newError(name, message string) goja.Value {
	if name == "" {
		name = "Error"
	}
	ctor, ok := goja.AssertConstructor(i.rt.Get(name))
	if !ok {
		ctor, _ = goja.AssertConstructor(i.rt.Get("Error"))
	}
	o, err := ctor(nil, i.rt.ToValue(message))
	if err != nil {
		return i.rt.ToValue(message)
	}
	return o
}

// TypedError is a Go error that reaches JavaScript as an error of a given
// class: TypeError, RangeError, or a DOMException name such as
// "NotFoundError" (once the events extension defined DOMException).
type TypedError struct {
	Name    string
	Message string
	// DOM makes it a DOMException even for a name that is also an error
	// class ("SyntaxError").
	DOM bool
}

// DOMError makes a TypedError that reaches JavaScript as a DOMException
// named name.
func DOMError(name, format string, args ...any) error {
	return &TypedError{Name: name, Message: fmt.Sprintf(format, args...), DOM: true}
}

// isErrorClass reports whether name is one of JavaScript's own error
// classes.
func isErrorClass(name string) bool {
	switch name {
	case "", "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError":
		return true
	}
	return false
}

// newDOMException constructs new DOMException(message, name), if the
// global exists.
func (i *Isolate) newDOMException(name, message string) (goja.Value, bool) {
	ctor, ok := goja.AssertConstructor(i.rt.Get("DOMException"))
	if !ok {
		return nil, false
	}
	o, err := ctor(nil, i.rt.ToValue(message), i.rt.ToValue(name))
	if err != nil {
		return nil, false
	}
	return o, true
}

func (e *TypedError) Error() string { return e.Name + ": " + e.Message }

// Errorf makes a TypedError.
func Errorf(name, format string, args ...any) error {
	return &TypedError{Name: name, Message: fmt.Sprintf(format, args...)}
}

// Throw throws err into the JavaScript that called the running native
// (see ErrorValue). Call it only from a native function.
func (i *Isolate) Throw(err error) {
	panic(i.ErrorValue(err))
}

// ErrorOf describes an exception goja returned from a call. Call it on
// the loop.
func (i *Isolate) ErrorOf(exc *goja.Exception) *Error {
	return i.errorOf(exc.Value(), exc)
}
