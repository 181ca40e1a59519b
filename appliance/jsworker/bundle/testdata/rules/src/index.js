import text from "./hello.txt";
import page from "./page.html";
import sql from "./schema.sql";
import notes from "./notes.md";
import zeta from "./zeta.bin";
import alpha from "./alpha.bin";
import add from "./add.wasm";
import addModule from "./add.wasm?module";

export default { text, page, sql, notes, zeta, alpha, add, addModule };
