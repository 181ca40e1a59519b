package worker

import "errors"

// RPCMaxMessage bounds a buffered call's encoded argument and result
// (Call), as Cloudflare bounds an RPC message: 32 MiB. A larger body
// streams (CallStream), which no such limit bounds.
const RPCMaxMessage = 32 << 20

// maxRPCMessage is RPCMaxMessage, lowered by tests.
var maxRPCMessage = RPCMaxMessage

// CodeTooLarge is the RPCError code of an argument or result over
// RPCMaxMessage.
const CodeTooLarge = "too_large"

// ErrRPCMessageTooLarge is Call's error for an argument or result over
// RPCMaxMessage.
var ErrRPCMessageTooLarge = errors.New("the RPC message is larger than RPCMaxMessage (32 MiB); stream it with CallStream")
