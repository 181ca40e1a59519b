// Every import here is a module the runtime provides.
import { DurableObject } from "cloudflare:workers";
import { connect } from "cloudflare:sockets";
import { Buffer } from "node:buffer";
import { EventEmitter } from "events";
import * as types from "util/types";
import posix from "node:path/posix";
import { ReadableStream } from "stream/web";
import { inspect } from "uses-require";

export class Room extends DurableObject {
  greet(): string {
    return "room";
  }
}

export default {
  imported(): Record<string, unknown> {
    return {
      DurableObject: typeof DurableObject,
      connect: typeof connect,
      Buffer: Buffer.from("x"),
      EventEmitter: typeof EventEmitter,
      types: typeof types.isDate,
      posix: posix.sep,
      ReadableStream: typeof ReadableStream,
      inspect: inspect(),
    };
  },
};
