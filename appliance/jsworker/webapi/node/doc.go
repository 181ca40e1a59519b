// Package node is dwk's Node.js compatibility layer, the extension the
// adapter installs for workers with the nodejs_compat compatibility flag:
// the node:* modules the bundler maps imports of Node built-ins to, and
// the globals Buffer, process and global.
//
// Modules lists every module with its level of support; docs and tests
// read it.
package node
