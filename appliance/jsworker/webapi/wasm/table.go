package wasm

import (
	"context"
	"fmt"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
)

// table is a WebAssembly.Table: one an instance exports, or one
// JavaScript made. wazero has no table API, so a generated accessor
// module imports the table and reads and changes it.
type table struct {
	owner *modRef
	name  string
	typ   tableType
	obj   *goja.Object

	acc                  *modRef
	size, grow, get, set api.Function
	// held keeps alive what the function references set into the table
	// from JavaScript point into (a reference does not keep its target).
	held []any
}

// newTable makes a table of type t.
func (s *state) newTable(t tableType) (*table, error) {
	r, err := instantiateGenerated(tableModule(t), nil)
	if err != nil {
		return nil, err
	}
	tb := &table{owner: r, name: ownedName, typ: t}
	if t.elem == typeExternref {
		r.extTables = append(r.extTables, tb)
		s.addRoot(r)
	}
	return tb, nil
}

// wrapTable returns the JavaScript Table of t, making it once.
func (s *state) wrapTable(t *table) *goja.Object {
	if t.obj == nil {
		v, err := s.jsTable(goja.Undefined(), s.rt.ToValue(t))
		if err != nil {
			panic(err)
		}
		t.obj = v.(*goja.Object)
	}
	return t.obj
}

// accessor makes the table's accessor module once.
func (t *table) accessor() error {
	if t.acc != nil {
		return nil
	}
	r, err := instantiateGenerated(tableAccessor(t.typ.elem, t.name), map[string]*modRef{"t": t.owner})
	if err != nil {
		return fmt.Errorf("access the table: %w", err)
	}
	t.acc = r
	t.size = r.mod.ExportedFunction(accSize)
	t.grow = r.mod.ExportedFunction(accGrow)
	t.get = r.mod.ExportedFunction(accGet)
	t.set = r.mod.ExportedFunction(accSet)
	return nil
}

// call1 calls an accessor function and returns its first result. The
// accessors trap only on arguments the callers check first.
func call1(fn api.Function, args ...uint64) (uint64, error) {
	stack := make([]uint64, 2)
	copy(stack, args)
	if err := fn.CallWithStack(context.Background(), stack); err != nil {
		return 0, fmt.Errorf("access the table: %s", trapMessage(err))
	}
	return stack[0], nil
}

// length is the table's number of elements.
func (t *table) length() (uint32, error) {
	if err := t.accessor(); err != nil {
		return 0, err
	}
	n, err := call1(t.size)
	return uint32(n), err
}

// rawGet is element i, which must exist.
func (t *table) rawGet(i uint32) (uint64, error) {
	if err := t.accessor(); err != nil {
		return 0, err
	}
	return call1(t.get, uint64(i))
}

// rawSet sets element i, which must exist, to the reference v; keep is
// what the reference needs alive.
func (t *table) rawSet(i uint32, v uint64, keep any) error {
	if err := t.accessor(); err != nil {
		return err
	}
	if keep != nil {
		t.held = append(t.held, keep)
	}
	_, err := call1(t.set, uint64(i), v)
	return err
}

// rawGrow grows the table by delta elements of init and returns its old
// length; ok is false when the table cannot grow so much.
func (t *table) rawGrow(delta uint32, init uint64, keep any) (old uint32, ok bool, err error) {
	if err := t.accessor(); err != nil {
		return 0, false, err
	}
	r, err := call1(t.grow, uint64(delta), init)
	if err != nil || int32(uint32(r)) < 0 {
		return 0, false, err
	}
	if keep != nil && delta > 0 {
		t.held = append(t.held, keep)
	}
	return uint32(r), true, nil
}

// checkIndex throws a RangeError unless element i exists.
func (s *state) checkIndex(t *table, i uint32, who string) {
	n, err := t.length()
	if err != nil {
		s.iso.Throw(err)
	}
	if i >= n {
		s.throwRange("WebAssembly.Table.%s(): invalid address %d in %s table of size %d", who, i, typeName(t.typ.elem), n)
	}
}

// tableLength is Table.prototype.length.
func (s *state) tableLength(t *table) uint32 {
	n, err := t.length()
	if err != nil {
		s.iso.Throw(err)
	}
	return n
}

// tableGet is Table.prototype.get.
func (s *state) tableGet(t *table, i uint32) goja.Value {
	s.checkIndex(t, i, "get")
	raw, err := t.rawGet(i)
	if err != nil {
		s.iso.Throw(err)
	}
	return s.fromWasm(raw, t.typ.elem, t)
}

// tableSet is Table.prototype.set.
func (s *state) tableSet(t *table, i uint32, v goja.Value) {
	s.checkIndex(t, i, "set")
	raw := s.toWasm(v, t.typ.elem)
	if err := t.rawSet(i, raw, s.refKeep(v, t.typ.elem)); err != nil {
		s.iso.Throw(err)
	}
}

// tableGrow is Table.prototype.grow.
func (s *state) tableGrow(t *table, delta uint32, v goja.Value) uint32 {
	raw := s.toWasm(v, t.typ.elem)
	old, ok, err := t.rawGrow(delta, raw, s.refKeep(v, t.typ.elem))
	if err != nil {
		s.iso.Throw(err)
	}
	if !ok {
		s.throwRange("WebAssembly.Table.grow(): failed to grow table by %d", delta)
	}
	return old
}
