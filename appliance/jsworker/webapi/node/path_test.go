package node_test

import "testing"

func TestPath(t *testing.T) {
	iso := newIsolate(t)
	for _, tc := range []struct{ call, want string }{
		{`join("/a/b", "../c", "./d")`, `"/a/c/d"`},
		{`join("a", "", "b/")`, `"a/b/"`},
		{`join("")`, `"."`},
		{`join("..", "a")`, `"../a"`},
		{`join("a", "../..")`, `".."`},
		{`resolve("a", "b")`, `"/a/b"`},
		{`resolve("/x", "y/", "../z")`, `"/x/z"`},
		{`resolve("/a", "/b", "c")`, `"/b/c"`},
		{`resolve()`, `"/"`},
		{`normalize("/foo/bar//baz/asdf/quux/..")`, `"/foo/bar/baz/asdf"`},
		{`normalize("./")`, `"./"`},
		{`normalize("a/../")`, `"./"`},
		{`normalize("/..")`, `"/"`},
		{`normalize("../a/..")`, `".."`},
		{`normalize("")`, `"."`},
		{`isAbsolute("/a")`, `true`},
		{`isAbsolute("a/b")`, `false`},
		{`relative("/data/orandea/test/aaa", "/data/orandea/impl/bbb")`, `"../../impl/bbb"`},
		{`relative("/a", "/a/b/c")`, `"b/c"`},
		{`relative("/a/b", "/a")`, `".."`},
		{`relative("/a", "/a")`, `""`},
		{`relative("a", "b")`, `"../b"`},
		{`dirname("/a/b/")`, `"/a"`},
		{`dirname("/a")`, `"/"`},
		{`dirname("a")`, `"."`},
		{`dirname("//a")`, `"//"`},
		{`basename("/a/b.html", ".html")`, `"b"`},
		{`basename("/a/b/")`, `"b"`},
		{`basename("/")`, `""`},
		{`basename("aaa/bbb", "bbb")`, `"bbb"`},
		{`basename("file.js", "js")`, `"file."`},
		{`extname("index.coffee.md")`, `".md"`},
		{`extname(".bashrc")`, `""`},
		{`extname("index.")`, `"."`},
		{`extname("..")`, `""`},
		{`extname("a/b.c/")`, `".c"`},
		{`parse("/home/user/dir/file.txt")`, `{"base":"file.txt","dir":"/home/user/dir","ext":".txt","name":"file","root":"/"}`},
		{`parse("./file")`, `{"base":"file","dir":".","ext":"","name":"file","root":""}`},
		{`parse("/")`, `{"base":"","dir":"/","ext":"","name":"","root":"/"}`},
		{`parse("file")`, `{"base":"file","dir":"","ext":"","name":"file","root":""}`},
		{`format({ root: "/", dir: "/home/user/dir", base: "file.txt" })`, `"/home/user/dir/file.txt"`},
		{`format({ root: "/", name: "file", ext: "txt" })`, `"/file.txt"`},
		{`format({ dir: "a", name: "b", ext: ".c" })`, `"a/b.c"`},
		{`sep + path.delimiter`, `"/:"`},
		{`posix === path`, `true`},
		{`toNamespacedPath("/a")`, `"/a"`},
	} {
		t.Run(tc.call, func(t *testing.T) {
			got := mustEval(t, iso, `const path = __dwk_import("node:path"); return path.`+tc.call)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	runErrorCases(t, iso, []errorCase{
		{"join of a number", `__dwk_import("node:path").join("a", 1)`, "TypeError", `The "path" argument must be of type string. Received type number (1)`},
		{"win32", `__dwk_import("node:path").win32.join("a")`, "Error", `dwk does not support the Node.js module "node:path/win32"`},
	})
}
