// Package crontakeover tests, on a real central-mode fleet, that a cron
// tick whose winner is killed while running it is run by another replica
// within the tick's grace window, and that a tick recorded done is not
// run again.
package crontakeover
