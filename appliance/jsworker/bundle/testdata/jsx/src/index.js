// JSX in a .js file, with a classic factory set by the options.
import { h, Frag } from "./h.js";

export default {
  run() {
    return (
      <Frag>
        <i>{"classic"}</i>
      </Frag>
    );
  },
};
