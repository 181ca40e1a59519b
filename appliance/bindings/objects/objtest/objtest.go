// Package objtest is the conformance suite of the object runtime: it drives
// a runtime only through its public surface (object namespaces, stubs, the
// Worker API seen from inside objects, HTTP and WebSocket clients) so the
// same tests run unchanged against local mode and central mode.
//
// A backend's test calls Run with a function that prepares one fresh,
// persistent store and returns an Opener for runtimes over it:
//
//	func TestConformance(t *testing.T) {
//		objtest.Run(t, func(t *testing.T) objtest.Opener {
//			dir := t.TempDir()
//			return func(t *testing.T, o objtest.Options) objtest.Runtime {
//				return openLocalRuntime(t, dir, o) // same dir: a restart
//			}
//		})
//	}
//
// The suite registers the object classes ProbeClass, OtherClass and
// StrictClass with worker.RegisterObject (once per process).
package objtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Runtime is the part of an object runtime the suite drives.
type Runtime interface {
	// Namespace binds an object class; see objects.Runtime.Namespace.
	Namespace(bindingName, className string) (worker.ObjectNamespace, error)
	// ActiveObjects is the number of object instances in memory.
	ActiveObjects() int
	// Asleep is the number of loaded objects that hibernate.
	Asleep() int
	// Drain stops admission, waits, and closes WebSockets with 1012.
	Drain(ctx context.Context) error
	// Close stops the runtime.
	Close(ctx context.Context) error
}

// Options are the settings the suite needs on every runtime it opens; the
// Opener must apply all of them.
type Options struct {
	// IdleTimeout is how long an idle instance stays in memory.
	IdleTimeout time.Duration
	// AlarmPollInterval is how often due alarms are looked for.
	AlarmPollInterval time.Duration
	// AlarmRetryBase is the first retry delay of a failed alarm.
	AlarmRetryBase time.Duration
	// Env gives instances of a class their Env.
	Env func(class string) *worker.Env
}

// Opener opens a runtime over the store prepared for one test. The runtime
// must be open (ready for events). Opening again after the previous
// runtime was closed is a restart: every object's data and alarm must still
// be there, and the fleet secret must be the same.
type Opener func(t *testing.T, o Options) Runtime

// The object classes the suite registers. StrictClass is the probe
// registered with worker.WithConcurrency(worker.Strict).
const (
	ProbeClass  = "objtest.Probe"
	OtherClass  = "objtest.Other"
	StrictClass = "objtest.Strict"
)

var registerOnce sync.Once

// Run runs the conformance suite. newStore is called once per test.
func Run(t *testing.T, newStore func(t *testing.T) Opener) {
	registerOnce.Do(func() {
		worker.RegisterObject(ProbeClass, newProbeObject)
		worker.RegisterObject(OtherClass, newProbeObject)
		worker.RegisterObject(StrictClass, newProbeObject, worker.WithConcurrency(worker.Strict))
	})
	tests := []struct {
		name string
		fn   func(t *testing.T, newStore func(*testing.T) Opener)
	}{
		{"IDs", testIDs},
		{"SQLExecAndCursor", testSQL},
		{"SQLErrors", testSQLErrors},
		{"Transaction", testTransaction},
		{"KV", testKV},
		{"KVMultiKey", testKVMultiKey},
		{"KVStartAfter", testKVStartAfter},
		{"StorageLimits", testStorageLimits},
		{"DatabaseSize", testDatabaseSize},
		{"StorageIsolation", testIsolation},
		{"DeleteAll", testDeleteAll},
		{"AlarmSetGetDelete", testAlarmSetGetDelete},
		{"AlarmFires", testAlarmFires},
		{"AlarmRescheduledByHandler", testAlarmRescheduled},
		{"AlarmRetries", testAlarmRetries},
		{"AlarmGivesUp", testAlarmGivesUp},
		{"Serialization", testSerialization},
		{"BlockConcurrencyWhile", testBlockConcurrencyWhile},
		{"ConstructorBlockConcurrencyWhileFails", testConstructorInitFails},
		{"WebSockets", testWebSockets},
		{"WebSocketViaFetchRejected", testUpgradeViaFetch},
		{"IdleEvictionKeepsData", testIdleEviction},
		{"WebSocketPreventsEviction", testSocketPreventsEviction},
		{"RestartKeepsDataAndAlarms", testRestart},
		{"DrainClosesWebSockets", testDrain},
		{"RPC", testRPC},
		{"RPCStream", testRPCStream},
		{"Hibernation", testHibernation},
		{"GateOpensWhileAwaitingACall", testGateOpensForCalls},
		{"GateStaysClosedForStorage", testGateClosedForStorage},
		{"BlockConcurrencyWhileKeepsTheGateClosed", testGateBlockConcurrencyWhile},
		{"CallBackIntoAWaitingObject", testCallBack},
		{"StrictClassRefusesCallCycles", testStrictCycle},
		{"DrainWaitsForEventsAwaitingCalls", testGateDrain},
		{"GateOpensInAlarmAndWebSocketHandlers", testGateHandlers},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newStore)
		})
	}
}
