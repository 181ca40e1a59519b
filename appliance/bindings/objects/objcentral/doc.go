// Package objcentral is the central-mode backend of the object runtime
// (package objects): it lets every replica of a fleet run any object, one
// replica at a time, with the object's state in libSQL.
//
//   - Store (objects.ObjectStore): each object's state is the pages of a
//     SQLite database, kept as rows in one of 32 packs (libSQL databases
//     the objects share) on the object shard rendezvous hashing of its id
//     picks; objects made by earlier versions keep a database of their
//     own (layouts.go). The holder serves the object from a local copy
//     (replica.go) and commits the pages it changes at the primary. The
//     object's rows keep the epoch of its current lease holder; Open
//     raises it to the new holder's epoch, and every commit carries a
//     guard on it in the same round trip, so a stale holder (paused,
//     partitioned) can neither write nor, once its lease is not fresh,
//     read after a newer holder has opened the object. Open syncs the
//     copy from the primary first (sync-before-serve).
//   - AlarmIndex (objects.AlarmIndex): alarm entries in the coordination KV
//     with a time-ordered index; Due claims each entry it returns by CAS
//     with a visibility timeout, and only claims entries this replica
//     should run (it holds the object's lease, or nobody does and
//     rendezvous placement picks it).
//   - Placer (objects.Placer): leases (package lease). A fresh lease held
//     here answers without any round trip; an object held elsewhere is
//     forwarded to its holder; a free object starts on the replica that
//     rendezvous hashing over the ready members picks.
//   - Forwarder (objects.Forwarder) and InternalHandler: requests (WebSocket
//     upgrades included) for objects held elsewhere travel over internal
//     HTTP over the peer link (package peerlink: a per-request MAC, and
//     mutual TLS when configured), under InternalPrefix. A forwarded request is forwarded
//     at most once more (MaxHops), which ends loops while leases move.
//
// # Wiring
//
//	link, _ := peerlink.New(peerlink.Config{Secret: fleetSecret, Fleet: fleet, Member: id})
//	leases := lease.New(lease.Config{Coord: coordStore, Member: id, Addr: internalAddr, TTL: ttl})
//	leases.Open(ctx)
//	store, _ := objcentral.NewStore(objcentral.StoreConfig{Shards: shards})
//	placer := objcentral.NewPlacer(leases, members).Preparing(store)
//	alarms, _ := objcentral.NewAlarmIndex(objcentral.AlarmConfig{Coord: coordStore, Placer: placer})
//	rt := objects.New(objects.Config{
//		Secret: fleetSecret, Store: store, Alarms: alarms, Placer: placer,
//		Forwarder: objcentral.NewForwarder(objcentral.ForwarderConfig{Link: link, Resolve: resolve, Placer: placer}),
//	})
//	rt.Open(ctx)
//	internalMux.Handle(objcentral.InternalPrefix, objcentral.InternalHandler(rt))
//	internal := link.Handler(internalMux) // served on link.Listen(ln)
//
// Drain order: leases.Drain() (no new leases), rt.Drain(ctx) (instances
// stop and release their leases), leases.Close(ctx) (releases the rest).
package objcentral
