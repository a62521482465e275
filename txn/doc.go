// Package txn writes and reads keyfirst entities in DynamoDB transactions
// (TransactWriteItems, TransactGetItems): all of the actions or none, on
// items of several entity types and tables, with every invariant the
// single writes keep.
//
// # When to use an update, a Modify, a Replace or a transaction
//
// One item, a change DynamoDB can compute and check (a counter, a field no
// key reads, a stock that must cover the order): keyfirst.Entity.Update,
// one UpdateItem and no read, refused before any request when it would
// leave a derived key stale. One item, a change that needs its values in
// Go: keyfirst.Entity.Modify, a read-modify-write guarded by the version
// (or by every attribute read), retried when another writer came first.
// One item written whole, from a value the caller holds:
// keyfirst.Entity.Replace (or Put). Several items, all or none: a
// transaction, [Write] of the same actions ([Update], [Replace], [Put],
// ...), or [Run] when what to write depends on what is stored in a way no
// condition can express.
//
// A transaction is for a real invariant across items (seed 004): decrement
// the stock and create the order, move a value from one item to another,
// create an item and the marker that keeps one of its values unique. It
// costs more than the same writes done alone: DynamoDB bills each item of
// a transaction twice (a prepare and a commit), it takes at most
// [MaxActions] items and [MaxBytes] in all, two transactions on one item
// cancel each other (TransactionConflict), and its latency is that of its
// slowest item. Writes that may succeed or fail each on its own are not a
// transaction: write them one by one, or in a batch
// (keyfirst.Table.BatchWrite) when they are many. A single item needs no
// transaction at all.
//
// # Write transactions
//
// [Write] takes typed actions, each built by the entity with the same item
// plan as keyfirst's single writes ([keyfirst.Entity.TransactPut] and its
// siblings): [Put] as Entity.Put, [Replace] as Entity.Replace, [Update]
// as Entity.Update, [Delete] as Entity.Delete, and [Check], a condition on
// an item that is not written.
// So inside a transaction, as outside, every key attribute is derived from
// the item, an item enters and leaves each sparse and sharded index by SET
// and REMOVE of that index's attributes, no write touches an item of
// another entity type, and the version of a versioned entity is checked
// and incremented. A caller's condition ([If], [Check], [keyfirst.Update.If])
// is one [keyfirst.Cond], on T's fields named as in Go, checked and
// converted as the partial update's before any request, and joined with
// AND to keyfirst's own guard:
//
//	dec := txn.Update(products, id, keyfirst.Add("Stock", -1).If(keyfirst.Field("Stock").Ge(1)))
//	put := txn.Create(orders, o)
//	err := txn.Write(ctx, client, []txn.Action{dec, put})
//	// or, on a whole write: txn.Replace(products, p, txn.If(keyfirst.Field("Name").Eq("DVD")))
//	// out of stock: a *CanceledError whose action 0 is a
//	// *keyfirst.ConditionError (ErrConditionFailed, Failed "Stock >= 1")
//
// Before any request Write refuses an empty transaction, more than
// [MaxActions] items, more than [MaxBytes], two actions on one item
// ([*LimitError]), and an action that cannot be built: an invalid item, a
// key of another entity type ([*ActionError] wrapping the root package's
// error).
//
// # Cancellation reasons, mapped back
//
// When DynamoDB cancels a transaction it answers with one reason per item,
// by position. Write maps each back to the action that sent it and returns
// a [*CanceledError]: for each failed action an [*ActionError] with its
// position among the actions given, its entity type, its key, DynamoDB's
// reason code, and the cause: for a failed condition the root package's
// [*keyfirst.ConditionError] (wrapping [keyfirst.ErrVersionConflict] with
// the expected and stored versions, [keyfirst.ErrAlreadyExists],
// [keyfirst.ErrNotFound], [keyfirst.ErrWrongEntityType], or
// [keyfirst.ErrConditionFailed] when the caller's own condition is what
// failed), otherwise [ErrTransactionConflict], [ErrThrottled],
// [ErrItemCollectionTooLarge] or [ErrValidation]. The error wraps them
// all: errors.Is(err, keyfirst.ErrVersionConflict) holds. Every action
// asks for the stored item on a failed condition
// (ReturnValuesOnConditionCheckFailure=ALL_OLD): that is how keyfirst
// tells a version conflict from a missing item, and [Op.Stored] returns it
// as T. A cancellation due only to conflicts or throttling is retried with
// backoff, up to [keyfirst.WithMaxAttempts] attempts.
//
// # Read transactions
//
// [Get] reads up to [MaxActions] items of any entity types in one
// TransactGetItems, a consistent snapshot; each [ReadOp] returns its item
// as T, and a missing item as [keyfirst.ErrNotFound] from
// [ReadOp.Result].
//
// # Idempotency
//
// Every request carries a client request token that keyfirst sets:
// [Token], one derived from the content ([ContentToken]),
// or a random one made for the call and kept for its retries. DynamoDB
// applies a transaction sent again with the same token, within 10 minutes,
// once, and refuses the token with other content ([ErrTokenReused], from
// IdempotentParameterMismatchException, whose message DynamoDB Local
// leaves empty). Two traps are avoided: aws-sdk-go-v2, when no token is
// set, writes the one it generates into the caller's input struct, so
// sending that struct again is silently a no-op while building it again is
// not idempotent at all (Write never lets the SDK fill one in); and the SDK
// marshals Go maps in random order, so one transaction is not always the
// same bytes: with a token that may be sent again, Write sends a canonical
// body, its object keys sorted, and ContentToken hashes those bytes.
// (DynamoDB Local 3.3.1 compared 60 replays of maps in random order as
// equal; a service that compares bytes would not.)
//
// ContentToken makes the same content the same transaction: the right
// thing for a retry of a write whose outcome is unknown, wrong for two
// intentional writes of the same content within 10 minutes (put an item,
// delete it, put it again: the second put is a no-op). Versioned entities
// are safe either way, since each write carries the version it expects.
//
// # Unique values
//
// A field declared unique in [keyfirst.EntitySpec.Unique] ("Email") is
// kept unique in the table by marker items
// ("UNIQUE#USER#email#ann@example.com", by its attribute name, naming the
// owner's key): [NewUnique] gives its actions, [Unique.Create],
// [Unique.Change] and [Unique.Delete], which write the item and its
// markers in one transaction; a taken value is an [*UniqueError]
// wrapping [ErrNotUnique] that names the field, the value and its
// holder; of two concurrent creates exactly one wins. Every other write
// path of the entity, here ([Put], [Replace], [Update], [Delete]) and in
// package keyfirst, is guarded by the stored value or refused before any
// request ([keyfirst.UniqueValueError]), so the markers never go stale. A Unique declared
// at package level, beside its entity, is bound to a table as the entity
// is ([Unique.In]).
//
// Values are unique as DynamoDB compares them: a number's marker holds
// its canonical text (1, 1.0, 1e0 and 01 are one value, -0 and 0 too),
// and a string, a number and a binary of the same text are three values
// ("UNIQUE#E#a#1", "UNIQUE:N#E#a#1", "UNIQUE:B#E#a#MQ=="). An entity type
// or attribute name holding '#' is refused, so that no two values share a
// marker, and a value whose marker key is longer than a key can be is
// refused before any request. Markers of strings are those earlier
// versions wrote; markers of numbers changed (they were the text as
// written, without kind) and the old ones are not read: a table with a
// unique number attribute needs a backfill of its markers
// ([Unique.Marker]) before writers of this version run.
//
// # Tables
//
// Every action and read goes to the table its entity is bound to
// (keyfirst.Entity.In), markers to their entity's table: two bindings of
// one description used at the same time, with the same keys, see only
// their own items. One transaction may span tables, bindings of one
// description included: the same key in two tables is two items, and a
// cancelled action names its table ([ActionError.Table]).
//
// # The stock and the order: an update, or a read-modify-write
//
// Seed 004's purchase is one [Write] of [Update] and [Create], as above:
// DynamoDB checks the stock and decrements it, the version of the product
// is incremented in the same write (so every other writer's check sees the
// change), and no item is read. The update is checked against the entity
// before any request, as keyfirst.Entity.Update is: a change of a field
// that a derived key reads is refused unless the update sets every field
// that key reads (keyfirst recomputes it in the same write), so a sparse
// "low stock" index or a sort key by stock cannot go stale. On DynamoDB
// Local, 8 buyers and 150 purchases of a stock of 100: exactly 100 orders,
// stock 0, 50 cancellations naming the stock's condition, and 150
// TransactWriteItems in all (conflicts between buyers are retried; none
// occurred), no read.
//
// [Run] is for a decision that no condition can express: it reads with
// [Tx.Get], lets the caller decide (an error of the caller's writes
// nothing), and writes the actions returned in one transaction. A
// [Replace] or [Delete] of an item read is written only if the stored item
// is still the one read: its version, or for an entity without one every
// attribute it reads or writes (the guard of keyfirst.Entity.Modify). When
// another writer came first the transaction is cancelled with a version
// conflict, and Run reads and decides again, with backoff, up to
// [keyfirst.WithMaxAttempts] (default 100). The same purchase made with
// Run costs a read per attempt and retries under contention: 284 to 351
// attempts for the 150 purchases on DynamoDB Local.
package txn
