// Package migrate brings the items stored in a live table up to the
// current entity definitions after a change of key design: a backfill.
//
// keyfirst derives every key attribute on every write, so a new
// definition applies to every item written after it is deployed, and to
// none stored before. A new concatenated index, a composite key in
// another order, a new membership condition (If), another shard count, all leave the
// stored items without the attributes the new design derives (or with
// the ones it no longer does). [Backfill] rewrites them: it reads the
// table with a parallel Scan, the seeds' "full export" case and the one
// place keyfirst scans a table, decides for each item with
// [keyfirst.Entity.Refresh] whether what is stored is what a write of the
// item would store now, and writes back only the items that differ, with
// the same UpdateItem and the same item plan as every write (SET for the
// attributes of the indexes the item is in, REMOVE for those it left).
//
// # Changing a key design
//
// Seed 000's example: orders were indexed by customer with the sort key
// <OrderDate>#<OrderStatus>, date first, so "CANCELLED orders in Q3" is
// not a key condition. The fix is a new attribute and a new index,
// <OrderStatus>#<OrderDate>, enum first, and a backfill:
//
//  1. Declare the new design. Add the index to the table's description
//     (a [keyfirst.Pattern] and its Index in TableSpec.GSIs) and bind the
//     pattern on the entity (EntitySpec.Keys). Keep the old index and its
//     binding: the service still reads it until the backfill is done.
//     Create the index on the live table: table.AddIndex(ctx, client,
//     byStatusDate) ([keyfirst.Table.AddIndex]; a
//     [*keyfirst.TableChangeError] says what the table cannot take). It
//     sends the UpdateTable that creates the GSI and returns once
//     DynamoDB has built it (ACTIVE, the items stored before indexed by
//     the attributes they already have), bounded by ctx only: minutes to
//     hours for a large table on AWS. Run again, it waits for the index
//     without creating it twice. Until the backfill has run, the index
//     lacks every item stored before without the new attribute:
//     [keyfirst.Table.Check] finds the index as declared, not its items.
//  2. Deploy the service with the new definition first. From then on every
//     write stores both attributes, so no new item needs the backfill;
//     the backfill handles those stored before. (A backfill run while an
//     older release still writes would be undone by it.)
//  3. Dry run. A Backfill with DryRun reads the table and reports, per
//     entity type and per index, how many items would change and how
//     (enter, leave, move in the index, update), and the write capacity
//     the writes would consume, as the sparse package's estimator
//     computes it ([sparse.Estimator], which agrees with DynamoDB Local's
//     reported capacity, see the tests): EstimatedWCU / WCU is the
//     duration of the real run at that budget. Its reads cost the Scan:
//     half a read unit per 4 KB of the table.
//  4. Run it with a write budget (WCU, units per second, table and
//     indexes together) that the table can spare beside the service's
//     traffic. Watch [Progress] (items scanned, changed, skipped,
//     conflicted, failed, per second, time left); persist its Checkpoint.
//     Cancel it at any moment (the context): the writes in flight
//     complete, the report's checkpoint is exact, and a Backfill with
//     Resume set to it, in this process or after a restart
//     ([ParseCheckpoint]), continues where each segment stopped,
//     processing every item once.
//  5. Look at the failures ([Report.Failures], [Backfill.OnFailure]): the
//     items that cannot be decoded, are of an entity type the table does
//     not know, whose keys cannot be derived, or whose primary key the
//     definition now derives otherwise (a new primary key is a new item,
//     not a backfill: Put it and Delete the old one). Fix them and run
//     the backfill again: it is idempotent, and an item up to date costs
//     its read only.
//  6. Switch the reads to the new index. Then remove the old binding and
//     the old index. The old attribute stays on the items (an attribute
//     no entity knows is kept by every write); it costs storage only.
//
// TestSeed000AddIndexWhileWriting runs these steps on DynamoDB Local with
// 4 writers writing throughout: nothing they wrote is lost, and the new
// index then answers "c's CANCELLED orders in Q3" exactly. (DynamoDB
// Local refuses every write, with InternalFailure, for the second or two
// it builds a GSI; AWS takes them. The test's writers retry.)
//
// The same steps change a membership condition (If: its index then holds exactly the
// items that qualify) or a shard count: set shard.Spec.Shards to the new
// count and PreviousShards to the old one, deploy, backfill the entity
// (every item moves to the shard of the new count), then remove
// PreviousShards. A native multi-attribute GSI over attributes the items
// already have needs no backfill.
//
// # Adopting a table keyfirst did not write
//
// The same run stores the entity-type attribute on the items another
// program wrote without it, once their entities recognise them by key
// ([keyfirst.EntitySpec.Adopt]): such an item decodes as its entity and
// differs from what a write stores by that attribute alone. The dry run
// counts them ([Counts].Adopted, per entity), the run writes them under
// the usual guard, and an item that two entities claim, or none, is a
// [Failure] with its key (a [*keyfirst.ClaimError]), left as it is.
// TestAdoptWhileWriting adopts seed 000's orders and customers, written
// with the raw SDK, while 4 writers write (2 through keyfirst, 2 with the
// raw SDK as the old program does): every item ends typed as its key
// says, and nothing they wrote is lost. Then drop Adopt.
//
// # A backfill on many machines
//
// A billion items are not backfilled by one process. A backfill splits
// across workers that share nothing but the table: run Workers of them,
// each a process (a Kubernetes Job's pod, an ECS task, an item of a Step
// Functions distributed map) with the same Name, Entities, WCU, Segments
// and Workers, and its own Worker, 0 to Workers-1, from its index in the
// job (JOB_COMPLETION_INDEX, the map's item). Worker w scans the Scan
// segments s with s % Workers == w, keeps a checkpoint of its own (its
// [Checkpoint.Worker] says whose it is; another worker's is refused), and
// spends its share of the budget, WCU × its segments / Segments, so that
// all of them together stay within WCU. Segments defaults to
// [DefaultSegments] per worker. Each worker persists its checkpoint where
// it outlives the process (an object store, a table, the orchestrator's
// state), at every [Progress]; a worker that dies is replaced by a new
// process with the same Worker and Resume set to the last checkpoint
// persisted: it continues where that one stopped, and an item written
// after that checkpoint is read again and found up to date, so no item is
// written twice. The backfill is finished when every worker's checkpoint
// is Done.
//
//	b := &migrate.Backfill{Name: "orders-status-first", Table: orders.Table(),
//		Entities: []migrate.Target{migrate.Entity(orders)},
//		WCU: 3000, Segments: 400, Workers: 100, Worker: index}
//
// TestBackfillAcrossProcesses proves it on DynamoDB Local with 3
// processes, one killed (SIGKILL) half-way and replaced: every item
// written exactly once (its version went from 1 to 2), and 115 WCU/s
// consumed over the processes for a budget of 120.
//
// # Visiting every item: a fold
//
// The same Scan, with its segments, checkpoint, resume and progress,
// reads an entity's items for a program of the user's instead of
// bringing them up to date: a target of [Visit] hands each item of its
// entity, decoded, to a function (a count rebuilt from scratch, an
// export), and writes nothing; a backfill of Visit targets only needs no
// budget. examples/opencount rebuilds its per-day counts of open orders
// with it, consistent with the stream that keeps them. TestVisitFolds
// and TestVisitCancelAndResume check on DynamoDB Local that every item is
// visited once, across a cancel and a resume.
//
// # Safe on a live table
//
// Each write is guarded ([keyfirst.Entity.Refresh]): by the version for a
// versioned entity, otherwise by every attribute the entity reads or
// writes being as read. When the service wrote the item between the
// Scan and the write, the write is refused and nothing is overwritten;
// the backfill takes the item as DynamoDB returned it with the refusal
// and decides again (usually: up to date, the service's write stored the
// new attributes), up to MaxConflicts times. A versioned item is stored
// with its next version, as by every write: a writer that read it before
// gets a version conflict and reads again (Modify does so by itself). Throttled requests
// (ProvisionedThroughputExceededException, ThrottlingException,
// RequestLimitExceeded) are retried with exponential backoff and full
// jitter. The budget is a token bucket: each write reserves its
// estimated units before it is sent, waiting until the bucket has paid
// for them, and is charged afterwards what DynamoDB reports it consumed
// beyond them (ReturnConsumedCapacity). It bounds the average and the
// burst: over any interval of T seconds, the writes the budget releases
// in it consume at most WCU*T plus the larger of a tenth of a second's
// worth ([BurstWindow]) and the largest write (see [Backfill.WCU] for
// writes whose estimate is off). Measured on DynamoDB Local: 149.9 WCU/s over a
// run for a budget of 150; at a budget of 40, on a fake clock with
// pauses of a second per Scan page, 42 WCU in the busiest second and 77
// in the busiest two, for bounds of 44 and 84 (63 and 119 when the
// bucket held a second's worth).
//
// A checkpoint is bound to the table, to the backfill's Name (valid
// UTF-8, so that it reads back the same), to the entity definitions (what
// keyfirst can see of them: type names, attributes, version, indexes) and
// to the mode; another one is refused with a [*CheckpointError] before
// any request. keyfirst cannot see inside the functions that derive the
// attributes (a shard count, the order of a composite key's segments):
// name each backfill after its change. It is sealed as strictly as a
// query cursor, with the same key option: with [keyfirst.WithCursorKey], an
// HMAC-SHA256, so that a checkpoint changed by hand (a segment dropped, a
// resume key moved on) or unsigned is refused; without it, a SHA-256
// checksum, which refuses a damaged or edited checkpoint but not a forged
// one. Every resume key must be a key of the table, its names and types.
//
// # Errors
//
// A Backfill that cannot run (no budget, an entity bound to another
// table, ...) is a [*ConfigError] ([ErrInvalidBackfill]); a checkpoint
// that does not fit, cannot be read or was changed, a [*CheckpointError]
// ([ErrCheckpoint]); both before any request. An item that cannot be
// brought up to date is a [*Failure] ([ErrItemFailed]) with its key and
// cause, reported without stopping the run unless StopOnFailure. A request that fails otherwise than by
// throttling or by its condition stops the run with its error.
package migrate
