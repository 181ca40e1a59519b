package wasm

// Opcodes the instrumentation looks at or writes.
const (
	opUnreachable = 0x00
	opBlock       = 0x02
	opLoop        = 0x03
	opIf          = 0x04
	opEnd         = 0x0b
	opGlobalGet   = 0x23
	opBlockVoid   = 0x40
)

// skipImmediates skips the immediates of the instruction op, whose opcode
// byte was just read: every instruction of the features the runtime
// enables (WebAssembly 2.0, tail calls, extended constants, exception
// handling) and the threads and typed-reference encodings. An opcode it
// does not know is an error.
func skipImmediates(r *reader, op byte) {
	switch {
	case op == 0x02 || op == 0x03 || op == 0x04 || op == 0x06: // block loop if try
		skipBlockType(r)
	case op == 0x05 || op == 0x0b || op == 0x0f || op == 0x19 || op == 0x0a || op == 0x00 || op == 0x01 ||
		op == 0x1a || op == 0x1b || op == 0xd1 || op == 0xd4:
		// else end return catch_all throw_ref unreachable nop drop select
		// ref.is_null ref.as_non_null: no immediates
	case op == 0x07 || op == 0x08 || op == 0x09 || op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 ||
		op == 0x14 || op == 0x15 || op == 0x18 || op == 0xd2 || op == 0xd5 || op == 0xd6:
		// catch throw rethrow br br_if call return_call call_ref
		// return_call_ref delegate ref.func br_on_null br_on_non_null
		r.u32()
	case op == 0x0e: // br_table
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			r.u32()
		}
		r.u32()
	case op == 0x11 || op == 0x13: // call_indirect return_call_indirect
		r.u32()
		r.u32()
	case op == 0x1c: // select t*
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			r.valType()
		}
	case op == 0x1f: // try_table
		skipBlockType(r)
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			switch kind := r.byte(); kind {
			case 0, 1: // catch, catch_ref: tag and label
				r.u32()
				r.u32()
			case 2, 3: // catch_all, catch_all_ref: label
				r.u32()
			default:
				r.fail("unknown catch clause %d", kind)
			}
		}
	case op >= 0x20 && op <= 0x26: // local.*, global.*, table.get, table.set
		r.u32()
	case op >= 0x28 && op <= 0x3e: // loads and stores
		skipMemArg(r)
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		r.u32()
	case op == 0x41: // i32.const
		r.skipLEB(5)
	case op == 0x42: // i64.const
		r.skipLEB(10)
	case op == 0x43: // f32.const
		r.bytes(4)
	case op == 0x44: // f64.const
		r.bytes(8)
	case op >= 0x45 && op <= 0xc4: // numeric instructions
	case op == 0xd0: // ref.null
		skipHeapType(r)
	case op == 0xfc:
		skipPrefixFC(r)
	case op == 0xfd:
		skipPrefixFD(r)
	case op == 0xfe:
		if sub := r.u32(); sub == 0x03 { // atomic.fence
			r.byte()
		} else {
			skipMemArg(r)
		}
	default:
		r.fail("unknown opcode 0x%02x", op)
	}
}

func skipBlockType(r *reader) {
	if r.err != nil || r.off >= len(r.b) {
		r.byte()
		return
	}
	switch c := r.b[r.off]; {
	case c == opBlockVoid || c == typeI32 || c == typeI64 || c == typeF32 || c == typeF64 || c == typeV128 ||
		c == typeFuncref || c == typeExternref:
		r.off++
	case c == 0x63 || c == 0x64:
		r.off++
		skipHeapType(r)
	default:
		r.s33()
	}
}

func skipHeapType(r *reader) { r.s33() }

// skipMemArg skips an alignment (whose bit 6 announces a memory index)
// and an offset.
func skipMemArg(r *reader) {
	if align := r.u32(); align&0x40 != 0 {
		r.u32()
	}
	r.skipLEB(10)
}

// skipPrefixFC skips the saturating truncations and the bulk memory and
// table instructions.
func skipPrefixFC(r *reader) {
	switch sub := r.u32(); {
	case sub <= 7: // trunc_sat
	case sub == 8 || sub == 10 || sub == 12 || sub == 14: // memory.init memory.copy table.init table.copy
		r.u32()
		r.u32()
	case sub == 9 || sub == 11 || sub == 13 || sub == 15 || sub == 16 || sub == 17:
		// data.drop memory.fill elem.drop table.grow table.size table.fill
		r.u32()
	default:
		r.fail("unknown instruction 0xfc %d", sub)
	}
}

// skipPrefixFD skips the SIMD instructions (relaxed SIMD included).
func skipPrefixFD(r *reader) {
	switch sub := r.u32(); {
	case sub <= 11 || sub == 92 || sub == 93: // loads, store, load*_zero
		skipMemArg(r)
	case sub == 12 || sub == 13: // v128.const, i8x16.shuffle
		r.bytes(16)
	case sub >= 21 && sub <= 34: // extract_lane, replace_lane
		r.byte()
	case sub >= 84 && sub <= 91: // load*_lane, store*_lane
		skipMemArg(r)
		r.byte()
	case sub <= 0x113:
	default:
		r.fail("unknown instruction 0xfd %d", sub)
	}
}
