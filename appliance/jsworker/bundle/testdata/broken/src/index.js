import a from "./a.js";
import b from "./b.js";

export default { a, b };
