// hello.txt is Data here: a user rule comes before the default Text rule.
import hello from "./hello.txt";
import page from "./page.html";

export default { hello, page };
