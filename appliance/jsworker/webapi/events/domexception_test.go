package events_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

func TestDOMException(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, exposeInternal)
	runCases(t, iso, []evalCase{
		{"fields", `const e = new DOMException("gone", "NotFoundError");
			return [e.name, e.message, e.code, e instanceof Error, e instanceof DOMException, String(e), Object.prototype.toString.call(e)]`,
			`["NotFoundError","gone",8,true,true,"NotFoundError: gone","[object DOMException]"]`},
		{"defaults", `const e = new DOMException(); return [e.name, e.message, e.code]`, `["Error","",0]`},
		{"unknown name has code 0", `return [new DOMException("x", "OperationError").code, new DOMException("x", "constructor").code]`, `[0,0]`},
		{"options object", `const c = new Error("root"); const e = new DOMException("m", { name: "DataError", cause: c });
			return [e.name, e.cause === c, Object.keys(e)]`, `["DataError",true,[]]`},
		{"stack names the exception", `return new DOMException("late", "AbortError").stack.split("\n")[0]`, `"AbortError: late"`},
		{"no own message", `return Object.getOwnPropertyNames(new DOMException("m", "AbortError")).filter(k => k !== "stack")`, `[]`},
		{"brand check", `return [internal.isDOMException(new DOMException("m")), internal.isDOMException(new Error("m")), internal.isDOMException(Object.create(DOMException.prototype))]`, `[true,false,false]`},
		{"getters need a DOMException", `try { Object.getOwnPropertyDescriptor(DOMException.prototype, "name").get.call({}); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"thrown and caught", `try { throw new DOMException("stop", "AbortError") } catch (e) { return [e.name, e.code, e.ABORT_ERR] }`, `["AbortError",20,20]`},
	})
}

func TestDOMExceptionLegacyCodes(t *testing.T) {
	iso := jsrttest.New(t, events.Extension)
	for _, tc := range []struct {
		name     string
		code     int
		constant string
	}{
		{"IndexSizeError", 1, "INDEX_SIZE_ERR"},
		{"DOMStringSizeError", 2, "DOMSTRING_SIZE_ERR"},
		{"HierarchyRequestError", 3, "HIERARCHY_REQUEST_ERR"},
		{"WrongDocumentError", 4, "WRONG_DOCUMENT_ERR"},
		{"InvalidCharacterError", 5, "INVALID_CHARACTER_ERR"},
		{"NoDataAllowedError", 6, "NO_DATA_ALLOWED_ERR"},
		{"NoModificationAllowedError", 7, "NO_MODIFICATION_ALLOWED_ERR"},
		{"NotFoundError", 8, "NOT_FOUND_ERR"},
		{"NotSupportedError", 9, "NOT_SUPPORTED_ERR"},
		{"InUseAttributeError", 10, "INUSE_ATTRIBUTE_ERR"},
		{"InvalidStateError", 11, "INVALID_STATE_ERR"},
		{"SyntaxError", 12, "SYNTAX_ERR"},
		{"InvalidModificationError", 13, "INVALID_MODIFICATION_ERR"},
		{"NamespaceError", 14, "NAMESPACE_ERR"},
		{"InvalidAccessError", 15, "INVALID_ACCESS_ERR"},
		{"ValidationError", 16, "VALIDATION_ERR"},
		{"TypeMismatchError", 17, "TYPE_MISMATCH_ERR"},
		{"SecurityError", 18, "SECURITY_ERR"},
		{"NetworkError", 19, "NETWORK_ERR"},
		{"AbortError", 20, "ABORT_ERR"},
		{"URLMismatchError", 21, "URL_MISMATCH_ERR"},
		{"QuotaExceededError", 22, "QUOTA_EXCEEDED_ERR"},
		{"TimeoutError", 23, "TIMEOUT_ERR"},
		{"InvalidNodeTypeError", 24, "INVALID_NODE_TYPE_ERR"},
		{"DataCloneError", 25, "DATA_CLONE_ERR"},
		{"EncodingError", 0, ""},
		{"NotReadableError", 0, ""},
		{"UnknownError", 0, ""},
		{"ConstraintError", 0, ""},
		{"DataError", 0, ""},
		{"TransactionInactiveError", 0, ""},
		{"ReadOnlyError", 0, ""},
		{"VersionError", 0, ""},
		{"OperationError", 0, ""},
		{"NotAllowedError", 0, ""},
		{"OptOutError", 0, ""},
	} {
		body := `const e = new DOMException("m", "` + tc.name + `"); return [e.code, DOMException["` + tc.constant + `"] ?? 0, e["` + tc.constant + `"] ?? 0]`
		got := jsrttest.MustEval(t, iso, body)
		want := strings.Repeat(strconv.Itoa(tc.code)+",", 3)
		if want = "[" + want[:len(want)-1] + "]"; got != want {
			t.Errorf("%s: got %s, want %s", tc.name, got, want)
		}
	}
}

// A DOMException that escapes reaches Go as a *jsrt.Error with its name.
func TestDOMExceptionToGo(t *testing.T) {
	iso := jsrttest.New(t, events.Extension)
	_, err := jsrttest.Eval(iso, `throw new DOMException("too slow", "TimeoutError")`)
	var je *jsrt.Error
	if !errors.As(err, &je) || je.Name != "TimeoutError" || je.Message != "too slow" {
		t.Errorf("escaped: got %#v, want a *jsrt.Error TimeoutError 'too slow'", err)
	}
}

// A native throws a DOMException by name with jsrt.Errorf or
// jsrt.DOMError.
func TestDOMExceptionFromGo(t *testing.T) {
	thrower := jsrt.Extension{Name: "thrower", Install: func(iso *jsrt.Isolate, host *goja.Object) error {
		return host.Set("fail", func(c goja.FunctionCall) goja.Value {
			if c.Argument(0).ToBoolean() {
				iso.Throw(jsrt.DOMError("SyntaxError", "bad selector"))
			}
			iso.Throw(jsrt.Errorf("NotSupportedError", "no such thing"))
			return nil
		})
	}, JS: "global.fail = host.fail;"}
	iso := jsrttest.New(t, events.Extension, thrower)
	got := jsrttest.MustEval(t, iso, `return [false, true].map(dom => { try { fail(dom) } catch (e) { return [e instanceof DOMException, e.name, e.message, e.code] } })`)
	if want := `[[true,"NotSupportedError","no such thing",9],[true,"SyntaxError","bad selector",12]]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
