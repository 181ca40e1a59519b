import x from "no-such-package";

export default x;
