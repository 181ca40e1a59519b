// Package e2e tests the Terraform modules and examples the way a user runs
// them: the real terraform CLI from PATH, the provider built from
// this checkout and installed into a filesystem mirror in a temp dir (no
// registry, no network), real stores (`dwk libsql` and versitygw, through
// test/libsqlserver and test/s3server), and real replicas deployed by
// dwk_fleet's local host target.
//
//   - TestFmtAndValidate: terraform fmt -check and terraform validate for
//     every module and example; descriptions on every variable and output,
//     a README per directory.
//   - TestNamespacesModule: modules/namespaces names databases exactly as
//     appliance/fleet/namespaces does.
//   - TestLocalExample: examples/local (make demo) applies a 3-replica
//     central-mode fleet, re-plans with no changes, serves the chat room
//     (two WebSocket clients on different front doors) and the counter, and
//     destroys everything it made.
//   - TestStagingExample: examples/staging in two workspaces at once, which
//     share no name, bucket, marker, port or data.
//   - TestCustomWorker: examples/custom-worker built as its own Go module
//     and deployed with modules/fleet.
//
// Every working directory is a copy of modules/ and the example in a temp
// dir, so the tests never write into the checkout and never collide with a
// running `make demo`. Ports come from free blocks picked at random. A test
// that fails half-way still destroys what it applied and kills any replica
// left under its temp dir. -short skips the tests that apply.
//
// Every test runs once per CLI, as subtests named after it: terraform, and
// OpenTofu too when tofu is on PATH or DWK_TEST_TOFU names its binary
// (docs/testing.md says how to build it). A missing terraform skips the
// terraform subtests, and fails them under CI (test/needtool).
package e2e
