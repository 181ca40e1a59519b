package node

import (
	"crypto/rand"
	"math/big"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// installRandom adds the natives of randomBytes, randomFill, randomInt and
// randomUUID.
func installRandom(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	// randomFill(view) fills the view's bytes in place.
	n.Set("randomFill", func(c goja.FunctionCall) goja.Value {
		b, ok := iso.Bytes(c.Argument(0))
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "the buffer must be an ArrayBuffer, a Buffer, a TypedArray or a DataView"))
		}
		rand.Read(b) // never fails (crypto/rand since Go 1.24)
		return c.Argument(0)
	})
	// randomInt(min, max) is a uniform integer in [min, max); the prelude
	// checked that both are safe integers less than 2^48 apart.
	n.Set("randomInt", func(c goja.FunctionCall) goja.Value {
		lo, hi := c.Argument(0).ToInteger(), c.Argument(1).ToInteger()
		if hi <= lo {
			iso.Throw(jsrt.Errorf("RangeError", "randomInt needs max (%d) greater than min (%d)", hi, lo))
		}
		k, err := rand.Int(rand.Reader, big.NewInt(hi-lo))
		if err != nil {
			iso.Throw(err)
		}
		return rt.ToValue(lo + k.Int64())
	})
	n.Set("randomUUID", func(goja.FunctionCall) goja.Value {
		return rt.ToValue(uuid4())
	})
}

// uuid4 is a random (version 4) UUID in its canonical form.
func uuid4() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for k, x := range u {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			out = append(out, '-')
		}
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}
