// a.js: fine until line 3.
const ok = 1;
const = 2;
export default ok;
