// Package sparse decides sparse-index membership at write time and tells
// what a write costs on each index.
//
// A sparse index holds only the items that carry its key attributes, so the
// filtering happens when an item is written, and a query (or, for an index
// that holds one entity type, a scan) reads only the subset it serves. Its
// weak spot is the write path: one write that forgets to remove the
// attribute, or sets it to "", silently corrupts the index. This package
// states membership once, as a rule per entity and index; the root package's
// write paths apply it on every write.
//
// # Membership rules
//
// A [Rule] says "an item of type T is in index X when predicate(T), with
// these key values". [In] starts one with the predicate, [Every] for every
// item of T; [Rule.Key] and [Rule.Fixed] add the key attributes, each value
// typed ([String], [Number], [Binary]) so that a value of the wrong type for
// the attribute is refused when the rule is applied. [Apply] checks the
// rules against the table and adds their derivations to a
// [keyfirst.EntitySpec]:
//
//	isOpen := sparse.In("open-tickets-index", Ticket.IsOpen).
//		Fixed("openBucket", "OPEN").
//		Key("openedAt", sparse.String(func(t Ticket) (string, error) { return openedAt.Encode(t.OpenedAt) }))
//	spec, err := sparse.Apply(table, ticketSpec, isOpen)
//	tickets, err := keyfirst.NewEntity(table, spec)
//
// A key attribute of the index that the rule does not derive is a field
// of T, stored under that attribute's name. That is seed 001 as written,
// when the ticket keeps its opening time in openedAt anyway: the rule
// derives openBucket alone (sparse.In("open-tickets-index",
// Ticket.IsOpen).Fixed("openBucket", "OPEN")), openedAt is stored once, as
// the field, and resolving a ticket REMOVEs openBucket and nothing else.
// A ticket the predicate puts in the index must then have the field: one
// that omits it (omitempty) is refused ([keyfirst.ItemMissingKey]). The
// rule above derives openedAt instead, from a field stored under another
// name: a copy, removed with openBucket.
//
// An index declared as a [keyfirst.Pattern] takes the same decision
// without this package: [keyfirst.If] around the pattern's binding
// (keyfirst.If(openTickets.Fields("Assignee", "OpenedAt"), Ticket.IsOpen)),
// or around [keyfirst.FuncPartition] for a computed partition key beside
// a sort key that is a field (the shard package's sharded indexes), with
// the query package reading it through the pattern. Rules remain for
// indexes named by string and for constant key values ([Rule.Fixed]); both
// end in the same write-path mechanism.
//
// Both forms of seed 000 are rules: a subset of one entity type in an
// overloaded index (only admins get GSI1SK = "Admin": In with the predicate
// and Fixed), and one entity type out of a multi-entity table (only
// Customers get CustomerIndexId: Every, on an index declared
// [keyfirst.Index.Scannable]).
//
// The predicate alone decides membership. While it holds, each key attribute
// of the rule is written with its value; once it stops holding, each is
// REMOVEd by an update ([keyfirst.Entity.Replace], [keyfirst.Entity.Modify])
// and left out by a put ([keyfirst.Entity.Put], [keyfirst.Entity.PutRequest]
// in a batch). That is the root package's one mechanism for every write path;
// a rule only produces its derivations. An empty value is never a way out:
// DynamoDB refuses "" as a key value, and a placeholder would keep the item
// in. A rule whose value is empty while its predicate holds is an error
// ([keyfirst.ItemEmptyKey]) before any request, like every other invalid key
// value. Only conditions known when the item is written can be rules: "is
// open", "is an admin", "is a customer"; not "will be late by tonight".
//
// # Write amplification
//
// Every write of the table may also write each secondary index (seed 002):
//
//	the item enters the index (gains its key attributes)    +1 write
//	the item leaves it (loses one of them)                  +1
//	a key value of the index changes                        +2 (delete, put)
//	the item is in it, a projected attribute changes        +1
//	the item is in it, only unprojected attributes change   +0
//	the item is not in it before nor after                  +0
//
// Each index write costs the size of the item's projection into the index,
// rounded up per KB. [Estimator.Estimate] computes this for a write, given
// the item before and after ([EstimateItems] for entity values), as a
// [Cost]: per index the [Transition], the writes and the WCUs, and the base
// table's WCUs. A 3 KB item put into a table with three GSIs, KEYS_ONLY
// (~200 bytes), INCLUDE (1.5 KB) and ALL, costs 3 + 1 + 2 + 3 = 9 WCUs.
// [ItemSize] is DynamoDB's item size, exact for every attribute type
// (numbers included: one byte per pair of significant digits plus one).
//
// The estimates follow what DynamoDB Local reports with
// ReturnConsumedCapacity=INDEXES; the package's integration tests compare
// them, transition by transition, on every write path. Use them to choose
// projections (project what the access pattern reads, or pay a GetItem per
// item; every projected attribute is one more reason for an index write)
// and to see what a dense index costs next to a sparse one.
//
// # Eventual consistency
//
// A query of a global secondary index is eventually consistent, always: a
// GSI is updated asynchronously after the table write succeeds, and
// ConsistentRead is refused on it. (DynamoDB Local updates its indexes at
// once; AWS within a fraction of a second under normal conditions, longer
// under load or throttling.) What a caller may conclude from a sparse-index
// read:
//
//   - An item in the result was in the index at some recent moment: the
//     ticket was open recently. It may have been resolved since.
//   - An item missing from the result may have entered the index a moment
//     ago: a ticket opened a second ago may not show yet.
//   - The projected attributes are those of one recent version of the item,
//     possibly older than the table's; the key attributes read from the index
//     match that version.
//   - The result is no proof of absence and no snapshot: two items of one
//     result may reflect different moments.
//
// What the caller may not do is decide with it. "Is this ticket open right
// now?" is a read of the table: [keyfirst.Entity.Get] with
// [keyfirst.ConsistentRead] (a strongly consistent GetItem), or, to act on
// the answer, a conditional write (a versioned [keyfirst.Entity.Modify])
// that fails if the item changed. A dashboard of open tickets reads the
// index; resolving a ticket from it reads, or conditionally writes, the
// ticket. A local secondary index, unlike a GSI, can be read consistently,
// at the cost of sharing the table's partition key and 10 GB per partition.
//
// # Errors
//
// A rule that cannot work is a [*RuleError] ([ErrInvalidRule]) from [Apply]
// or [Rule.IndexKeys], before any entity exists. An invalid key value at
// write time is the root package's [keyfirst.ItemError], returned before the
// request. Images that are not a write DynamoDB would accept are an
// [*EstimateError] ([ErrCannotEstimate]).
package sparse
