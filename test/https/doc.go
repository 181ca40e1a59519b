// Package https holds the multi-process tests of automatic HTTPS in a
// central-mode fleet: real `dwk serve` replicas over a real `dwk libsql`
// and versitygw, obtaining their certificate from a real ACME server
// (Pebble, package test/pebbleserver) into the shared certificate storage.
package https
