// Package browser holds the browser tests: headless Chromium (Debian's
// chromium package), driven over the DevTools protocol by chromedp,
// against a real 3-replica fleet (package fleettest). They sign in to the
// fleet page, drain a member from it and watch an object move; and they
// chat between two pages on two front doors through a double join and the
// kill of the room's holder.
//
// With DWK_SCREENSHOTS=dir the fleet page test writes its screenshots
// (fleet-page.png before the drain, fleet-page-draining.png during it)
// into dir; docs/img holds the committed ones.
package browser
