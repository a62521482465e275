// Package sparse tells what a write costs on each index of a table, and
// states how the root package decides sparse-index membership.
//
// A sparse index holds only the items that carry its key attributes, so the
// filtering happens when an item is written, and a query (or, for an index
// that holds one entity type, a scan) reads only the subset it serves. Its
// weak spot is the write path: one write that forgets to remove the
// attribute, or sets it to "", silently corrupts the index. keyfirst
// declares membership once, as a binding of the index's access pattern,
// and its write paths apply it on every write; this package has no
// declaration of its own.
//
// # Membership: a pattern bound with If
//
// A sparse index is a [keyfirst.Pattern] of the index ([keyfirst.OnIndex]),
// bound in [keyfirst.EntitySpec.Keys] with [keyfirst.If]: an item of type T
// is in the index exactly while the predicate holds. A key value that
// every member stores alike is a constant side ([keyfirst.Const]): seed
// 001's openBucket = "OPEN", seed 000's GSI1SK = "Admin". Seed 001's
// open tickets, a constant partition key and the opening time as sort
// key:
//
//	var (
//		ticketKey   = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
//		openedAt    = keys.NewKey1(keys.Time(keys.Micro))
//		ticketByID  = keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.NoSort())
//		openTickets = keyfirst.OnIndex("open-tickets-index", keyfirst.Const("openBucket", "OPEN"), keyfirst.Composite("openedAt", openedAt))
//
//		SupportTickets = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SupportTickets", Key: ticketByID,
//			GSIs: []keyfirst.Index{openTickets.Index()}}))
//		Tickets = keyfirst.Must(keyfirst.NewEntity(SupportTickets, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
//			ticketByID.Fields("ID"),
//			keyfirst.If(openTickets.Fields("OpenedAt"), Ticket.IsOpen),
//		}}))
//	)
//
// The predicate alone decides membership. While it holds, each key
// attribute the binding derives is SET with its value, the constant among
// them; once it stops holding, each is REMOVEd by an update
// ([keyfirst.Entity.Replace], [keyfirst.Entity.Modify],
// [keyfirst.Entity.Refresh], txn.Replace) and left out by a put
// ([keyfirst.Entity.Put], [keyfirst.Entity.PutRequest] in a batch,
// txn.Put): all of the index's derived attributes or none, on every write
// path of the root package. An empty value is never a way out: DynamoDB
// refuses "" as a key value, and a placeholder would keep the item in. A
// value that is empty, too long or refused by its codec while the
// predicate holds is an [keyfirst.ItemError] before any request
// ([keyfirst.ItemEmptyKey], [keyfirst.ItemKeyTooLong], ...); while it does
// not hold, the value is not computed. Only conditions known when the item
// is written can decide: "is open", "is an admin", "is a customer"; not
// "will be late by tonight".
//
// A sort key that is a field of T, stored under the attribute's own name,
// is that field rather than a copy: a [keyfirst.Str], [keyfirst.Num] or
// [keyfirst.Bin] side bound to it ([keyfirst.Pattern.Fields] beside a
// constant partition side, or [keyfirst.FuncPartition] beside a computed
// one, as the shard package's sharded indexes are). That is seed 001 as
// written, when the ticket keeps its opening time in openedAt anyway:
// openedAt is stored once, as the field, and resolving a ticket REMOVEs
// openBucket and nothing else. A ticket the predicate puts in the index
// must then have the field: one that omits it (omitempty) is refused
// ([keyfirst.ItemMissingKey]). The declaration above derives openedAt
// instead, from a field stored under another name: a copy, removed with
// openBucket.
//
// Both forms of seed 000 are bindings. A subset of one entity type in an
// overloaded index: only admins get GSI1SK = "Admin", a pattern of GSI1
// whose sort side is Const("GSI1SK", "Admin"), bound with If(...,
// User.IsAdmin) beside the organizations' own pattern of GSI1. One entity
// type out of a multi-entity table: only Customers carry CustomerIndexId,
// because only the Customer entity binds the index's pattern (no If: every
// customer is in it), on an index declared [keyfirst.Index.Scannable].
//
// A key that no pattern describes has one escape: a [keyfirst.Func] (or
// [keyfirst.FuncE]) binding of a pattern whose sides are raw
// ([keyfirst.Str], [keyfirst.Num], [keyfirst.Bin]); ok=false keeps the item
// out, with the same all-or-nothing writes.
//
// # Reading a sparse index
//
// The query package reads a sparse index through its pattern: query.On
// with the partition key value (keyfirst.None{} for a constant partition
// side, which reads every member, in sort key order), query.ScanOn for a
// Scannable index. A constant sort side is compared by the query itself
// (GSI1PK = "ORG#berkshire" AND GSI1SK = "Admin"), which refuses a sort
// condition of its own. An index that projects less than the entity is
// read into a struct of what it holds, with query.View.
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
// A sparse index declared wrong is refused before any entity exists, by
// the root package: an empty or over-long constant is a
// [keyfirst.PatternError], a pattern whose attributes are not the index's,
// If on the table's key or on an index with nothing to remove, an
// [keyfirst.EntityError] from [keyfirst.NewEntity]. An invalid key value at
// write time is a [keyfirst.ItemError], returned before the request.
// Images that are not a write DynamoDB would accept are an
// [*EstimateError] ([ErrCannotEstimate]), the package's own.
package sparse
