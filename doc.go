// Package keyfirst is typed single-table DynamoDB data access in which every
// access pattern compiles to a key condition: never a filter expression, never
// a Scan of the table (the one Scan of a table is the migrate package's
// backfill, a full export by design).
//
// # Architecture
//
// The module is a few packages in layers; imports point one way only, from
// the top of this list towards its bottom:
//
//	examples      runnable programs, one per access pattern
//	integration   DynamoDB Local in a container, for tests (ours and yours)
//	migrate       the backfill after a change of key design: a parallel
//	              Scan that rewrites the items stored under an older
//	              definition (Entity.Refresh), within a write budget,
//	              resumable from a checkpoint
//	txn, shard    typed transactions; write-sharded GSIs, their fan-out
//	              reader and re-shard pass
//	stream        a table's DynamoDB stream as typed changes with their
//	              index transitions, and a consumer of it; its Lambda
//	              adapter is stream/lambdastream, a module of its own
//	observe/otelkf  OpenTelemetry spans and metrics of every request, a
//	              module of its own (the hook is the root's Observer)
//	query, sparse key-condition-only reads; what a sparse index costs on each write
//	keyfirst      schema, entities, derived keys, item operations, batches
//	keys          pure codecs: composite sort keys whose byte order is the
//	              values' order (no SDK, no network)
//	internal      plumbing users never import: the struct codec, item sizes
//	              and DynamoDB numbers (itemsize), error texts, retry backoff,
//	              attribute names in expressions (attrname), DynamoDB's
//	              equality and order of values (avequal), sealed cursors
//	              (envelope) and their key values (keyjson), decimal
//	              digits and calendar dates of keys and the codec (digits,
//	              civil), and the tests' client that refuses every request
//	              (nocalls)
//
// [github.com/keyfirst/keyfirst/keys] encodes typed values into key segments
// (enums first, ISO-8601 UTC times, zero-padded integers) and builds the
// bounds of key conditions from typed values. The root package describes a
// table once in Go, the entity types that live in it and how every key and
// index attribute derives from an item, and performs the item operations, so
// that no write can leave a derived attribute stale.
// [github.com/keyfirst/keyfirst/query] reads item collections with key
// conditions only, exact limits and resumable cursors.
// [github.com/keyfirst/keyfirst/sparse] decides at write time whether an
// item belongs to a sparse index. [github.com/keyfirst/keyfirst/shard]
// declares write-sharded GSIs (OPEN#0 .. OPEN#N-1), writes them through
// the entity's bindings, and reads them with a fan-out that behaves like
// one query (exact limit, one cursor), and moves items to a new shard
// count with a resumable pass.
// [github.com/keyfirst/keyfirst/migrate] brings the items stored before a
// change of key design (a new index, a composite key in another order, a
// new membership condition (If), another shard count) up to the entities' current
// definitions, on a live table.
// [github.com/keyfirst/keyfirst/txn] writes and reads entities in
// transactions, each action built by the same item plan as the single
// writes ([Entity.TransactPut] and its siblings), with cancellation
// reasons mapped back to the actions, idempotency tokens, unique values
// by marker items and read-modify-write.
// [github.com/keyfirst/keyfirst/integration] imports only the standard
// library and the AWS SDK, and starts containers with the docker CLI;
// nothing in the library imports it, so a module that imports keyfirst
// requires only the AWS SDK.
//
// # Tables
//
// A table is described once in Go, as a [TableSpec]: its partition and sort
// key [Attribute] values (or the [Pattern] of its key), its GSIs and LSIs ([Index]: key attributes and
// [Projection]), its billing mode, and the name of the attribute that
// stores each item's entity type (default "_type"). [NewTable] refuses, with
// a [*SchemaError] wrapping [ErrInvalidSchema], what DynamoDB would refuse
// at CreateTable and what keyfirst cannot use: invalid names, duplicate
// index names, more than 20 GSIs or 5 LSIs, more than 4 attributes on a
// side of a GSI key (1 on the table and on LSIs), an LSI whose partition
// key is not the table's, one attribute declared with two types, an INCLUDE
// projection without attributes. A GSI key is either one attribute (a
// concatenated value built with the keys package) or several (a native
// multi-attribute key). A description is declared once, usually at package
// level ([Must]), and bound to the table's name at run time with
// [Table.Named] (orders-prod, orders-staging, a table per test); entities
// follow with [Entity.In]. Bindings share the description and the registry
// of entity types, and can be used at the same time; everything done
// through one (item operations, batches, queries, scans, transactions,
// sharded reads, re-shard passes and backfills, with their cursors and
// checkpoints) reads and writes its table only; a test gets a table of
// its own with integration.TableOf. [Table.CreateTableInput] generates the request that
// creates the table ([Table.Create] sends it and waits, see below); [Table.Index] returns the resolved [KeySchema] of the
// table or of an index, which the query package builds its key conditions
// from.
//
// # The table's life: create, check, evolve
//
// The description is the table's definition, and three calls keep the
// live table in step with it. [Table.Create] creates the table (its
// indexes, billing mode and throughput) and waits until it and every
// index are ACTIVE, bounded by the context only; a table of that name that
// exists already and serves the schema is no error, so a service or a test
// calls it at every start. [Table.Check] compares the schema with the live
// table (DescribeTable, DescribeTimeToLive) and returns the differences
// as typed values ([Difference]: a [DiffKind] and a [Severity]): a missing
// table or index, another key attribute, order or type, a GSI where the
// schema has an LSI, an index still being built, a projection that holds
// less than the schema declares are errors, returned in a
// [*TableDiffError] ([ErrTableDiffers]), because reads and writes of the
// schema fail or find nothing on such a table; an index the schema does
// not declare, a projection that holds more, another billing mode or
// throughput, a stream or a time to live that the schema does not declare
// are notes, and a stream the schema declares ([TableSpec.Stream]) that the
// table lacks, or whose view carries fewer images, is an error.
// [Table.Diff] is the comparison without the requests. A service calls
// Check once at start-up; the harness calls it in tests
// (integration.CheckTable). [Table.AddIndex] evolves the table: it creates
// a GSI of the schema that the live table lacks and waits until DynamoDB
// has built it, after refusing what DynamoDB would refuse ([*TableChangeError]:
// an LSI, which exists only with its table, more than [MaxGSIs] GSIs, an
// index of that name that is not the schema's); the migrate package then
// writes the attributes keyfirst derives for it on the items stored
// before (its "Changing a key design" walks the whole procedure through,
// and splits a large backfill across machines). Each call takes the client
// interface of the operations it sends ([TableCreateAPI], [TableCheckAPI],
// [TableAddIndexAPI]).
//
// # Access patterns
//
// An access pattern ([Pattern]) is the table's primary key or one of its
// indexes together with the Go types and encodings of its keys, declared
// once, usually at package level:
//
//	var (
//		orderByID      = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
//		ordersByStatus = keyfirst.OnIndex("ByStatusDate", keyfirst.ID("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
//	)
//
// Each side of a key is a [Side]: [Composite] (a keys definition
// concatenated in one attribute: CANCELLED#2019-07-01T00:00:00.000000),
// [Native] (its segments in one attribute each, a native multi-attribute
// key), [ID] (an identifier as it is, refusing what an identifier cannot
// hold: a key encoded by hand, "CUSTOMER#c_42", is an error, not a query
// that finds nothing), [Str], [Num] and [Bin] (any value as it is),
// [Tuple2] .. [Tuple4] (a native key of such sides, each an attribute of
// its own type), [Const] (one literal value every item of the pattern
// stores: an overloaded index's GSI1SK = "Admin", seed 001's
// openBucket = "OPEN") and [NoSort]. The table takes its key from a pattern ([TableSpec.Key]) and
// its indexes from theirs ([Pattern.Index]); an entity binds the patterns
// it is written under to fields of T ([Pattern.Fields]), to a function
// ([Func], or [FuncE] when it can fail), its partition key to a function
// and its sort key to fields ([FuncPartition]: a computed partition such
// as a shard, the item's own sort value) or, for a sparse index, to any
// of these under a condition ([If]: a constant side is SET while the item
// qualifies and REMOVEd when it leaves); the
// query package reads a pattern with typed values (query.On), encoded by
// the same code that wrote them, compares a constant sort side itself
// (the admins of an organization are query.On(users, adminsOf,
// "berkshire")), and refuses a sort condition built from
// another key definition. Index names and attributes are checked once,
// when the entity binds the pattern; after that, code refers to patterns,
// not strings. A field is read at its offset in T, with no closure and no
// error to return; its Go type must be the segment's (or of the same basic
// kind, a named string type for a string segment), checked by [NewEntity].
// Two patterns may store one attribute (an inverted index, an LSI's
// partition key): computed the same way it is shared, computed another
// way from fields each write checks that both agree ([ItemKeyConflict]).
//
// # Entities and derived keys
//
// An entity type is a Go struct T, encoded as the attributevalue package
// encodes it (dynamodbav tags), and an [EntitySpec] that says how every
// key attribute derives from T: [NewEntity] registers it on the table.
// Bindings of patterns ([EntitySpec.Keys]) are the one way. For keys that
// no typed side describes (a legacy layout), the one escape is a [Func]
// (or [FuncE]) binding of a pattern whose sides are raw ([Str], [Num],
// [Bin]): the function returns the values as they are stored.
//
//	legacy := keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK"))
//	keyfirst.Func(legacy, func(o Order) (string, string, bool) { return "O#" + o.ID, "META", true })
//
// The attributes an index derives are all-or-nothing: when its binding
// reports no value (ok=false, or [If] false) the item is not in the index
// and none of the index's derived attributes is written. A derived key value is never an empty string or a
// placeholder: an empty, mistyped or over-long value is an [*ItemError]
// before any request. No write sends a value that DynamoDB would refuse or
// store changed, in a key or anywhere in the item (sets, lists, maps,
// values of custom marshalers): a number it cannot store (NaN, an
// infinity, more than 38 significant digits, a magnitude outside 1E-130
// to below 1E+126) is [ItemBadNumber] (a key value whose derivation
// refuses it first, as a [Num] side refuses NaN, is [ItemDerive]), and a string, set element or map
// key that is not valid UTF-8 (the SDK would send U+FFFD for each invalid
// byte, so two keys could become one) is [ItemBadString]; the error names
// the attribute and the path inside it. The key attributes of a secondary
// index may instead be ordinary fields of T: those of a native
// multi-attribute GSI, and an [ID], [Str], [Num] or [Bin] side bound to the field
// stored under its attribute's name (seed 002's order_date, the sort key
// of a sharded index and of another GSI: stored once, never REMOVEd, the
// derived partition attribute alone deciding membership). An item leaves
// the index when such a field is omitted (omitempty); an item that a
// condition or a function puts in the index while it omits such a field
// is refused ([ItemMissingKey]). So may the table's key attributes,
// when their sides store values as they are ([ID], [Str], [Num], [Bin]) and are
// bound to the fields of those attribute names (seed 004's Actor and
// Movie): the field is the key, stored once, and checked as a derived key
// is. Such a field is stored so that
// DynamoDB orders it as Go orders its values: strings, numbers and []byte
// as they are, a time.Time in UTC at a fixed width ([TimeKeyLayout]; query
// it with [FormatTimeKey]); a number stored as a string, and a custom
// marshaler behind a string or binary sort key, are refused by [NewEntity]
// ([EntityFieldOrder]): derive those with a keys codec. Every item carries
// its entity type,
// so [Table.Decode] decodes a mixed item collection (a customer and its
// orders) into the right Go types, and [Entity.Decode] refuses an item of
// another type ([ErrWrongEntityType]).
//
// # Item operations
//
// [Entity.Put], [Entity.Replace], [Entity.Modify], [Entity.Update] and
// [Entity.Delete] write; [Entity.Get] reads. Writes take a complete T,
// except Update, which takes the changes of some fields. Reads take a [Key], derived
// from a T whose key fields are set by [Entity.Key]: a comparable value, so
// a mistake in the key fields is reported once, where the key is made, and
// a key of one entity type cannot be passed to another (by its type
// parameter, and for two entity types of one Go type by the entity type it
// carries: [ErrWrongEntityType] before any request). Every operation
// takes the context first and a client interface with the one method it
// needs ([GetItemAPI], [PutItemAPI], ...), which *dynamodb.Client
// satisfies, and options as in the AWS SDK ([Options]: [ConsistentRead],
// [CreateOnly], [WithCapacity], ...). An option that does not apply to the
// operation is an [*OptionError], before any request.
//
// # Why no write can leave a derived attribute stale
//
// keyfirst never writes part of an item without knowing every key the
// part changes. Every whole write (Put, Replace,
// Modify, the puts of [Table.BatchWrite] and the actions of transactions)
// builds the complete item from a T with the same function: T's fields,
// the entity-type attribute, the primary key and, for each index, either all of that index's derived key
// attributes (the item belongs to the index) or none of them. Put writes
// that item (on the condition that the key holds no item of another entity
// type), in which the attributes of the indexes the item left are
// simply absent. Replace sends one UpdateItem computed from it: SET for
// every attribute the item has, REMOVE for every derived index attribute it
// does not have and for every field of T it leaves out, on the condition
// that the stored item is of this entity type (and has the expected
// version). Because the expression comes from the whole new item, no field
// change can leave a derived attribute behind: neither a sparse index key
// kept by an update that does not mention the index's fields (ElectroDB
// #479) nor a combined GSI key not recomputed when one of its parts changes
// (OneTable #301). Partial updates ("SET status = :s") are exactly the
// writes that go stale in other libraries; keyfirst's ([Entity.Update],
// below) are checked against every key before they are sent. To change a
// few fields of the stored item from Go, [Entity.Modify] reads it (consistently), lets a
// function change it, and writes the complete result back, guarded by
// the version, or, for an entity without a version attribute, by a
// condition that every attribute the entity reads or writes is still as
// read (which DynamoDB's expression limits allow for about 150 attributes;
// a wider entity needs a version). Under that condition the write can
// only land on the item read, so its UpdateItem carries only what differs
// between the item read and the complete new one, computed by the same
// function (seed 002's close_order: SET status REMOVE open_status_shard);
// under a version it is Replace's, the whole item. While other writers' writes come first
// it reads again and retries, with backoff and full jitter, up to a
// generous bound; a condition that fails on an unchanged item stops it at
// once ([ErrConditionUnexplained]). A modification that changes the
// primary key is refused ([ErrKeyChanged]):
// moving an item is a Put and a Delete. The price: a Replace sends the
// whole item (DynamoDB bills an update on the larger of the old and new
// item, so a complete item costs no more WCUs than a partial one), and
// Modify adds a consistent read.
//
// # Partial updates: one write, no read
//
// [Entity.Update] sends one UpdateItem with the changes of some fields
// ([Set], [Add] for counters, [Remove], [Append], [AddToSet],
// [DeleteFromSet]) and a condition on the stored item's fields
// ([Update.If], [Field]), all named as in Go and checked against T before
// any request, and returns the item as stored after it (ALL_NEW). It
// never creates an item ([ErrNotFound]), never writes another entity
// type's, and increments the version. Before it is sent, keyfirst knows
// which fields every key reads: the fields a [Pattern.Fields] binding
// names, the fields the table's key holds (decoded from the key given),
// and what a function declares with [Binding.Reads]. A change of a field
// the table's key reads is refused; a change of a field an index's key or
// membership reads must set what that binding reads, and keyfirst then
// computes the index's attributes from those values, in the same write,
// with the same function every write path uses (SET, or REMOVE when the
// item leaves a sparse index: seed 000's promotion of a user to admin,
// seed 002's close_order); otherwise it is refused ([UpdateStaleKey]),
// naming the index. A function keyfirst cannot see into that declares
// nothing makes every update of its entity refused ([UpdateUndeclared]):
// the alternative, trusting an update not to touch what it reads, is the
// stale key. A declaration that is wrong is found after the write (the
// keys derived from the item as stored differ from those stored), the
// item rewritten at once and the update reported ([UpdateUndeclaredRead]).
//
// # Which write
//
//   - A counter, a field that no key reads, a change DynamoDB can check
//     (a stock that covers the order: Add("Stock", -n).If(Field("Stock").Ge(n))):
//     [Entity.Update]. One write, no read, no retry.
//   - A change that needs the item's values in Go (a new status computed
//     from the old, a list edited): [Entity.Modify] (a consistent read, then
//     the complete item, retried while other writers come first).
//   - A complete item the caller holds: [Entity.Replace], or [Entity.Put]
//     to create or overwrite.
//   - Several items, all or none: the txn package, whose actions are these
//     same writes (txn.Update among them); txn.Run when a decision needs a
//     read of the items first.
//
// # Items stored under an older definition
//
// Changing how an attribute derives (a new index, a composite key in
// another order, a new membership condition (If), another shard count) changes what the
// next write of each item stores, not the items already stored.
// [Entity.Refresh] brings one stored item, as read, up to the current
// definition: it decodes it, rebuilds the complete item with the same
// item plan as every write, and, when an attribute the entity derives or
// writes is stored otherwise, writes it as Modify does (what differs,
// under a condition on every attribute as read; the whole item, under the
// version), so a concurrent write is never overwritten: the
// result is then RefreshConflicted with the item stored now.
// [Entity.PlanRefresh] is its dry run. A changed primary key is not a
// refresh ([ErrKeyChanged]). The migrate package runs it over a whole
// table.
//
// # Created, updated and expiry times
//
// An entity declares its lifecycle fields once ([EntitySpec.Created],
// [EntitySpec.Updated], [EntitySpec.Expires]: time.Time fields of T, by
// Go name) and every write path sets them from one clock
// ([EntitySpec.Clock], time.Now by default; tests set it, never sleep),
// through the item plan every write shares, so no path can forget them:
//
//   - Updated is the time of the write, on every path: Put, Replace,
//     Modify, Update (a SET the key analysis sees, so an index that reads
//     it stays fresh), a batch put, every transaction action that writes
//     the item, and Refresh when it rewrites the item (an item already up
//     to date is left alone, its updated time too).
//   - Created never changes once stored. Every update SETs it with
//     if_not_exists, so the stored one wins, and a Put of such an entity
//     is an UpdateItem for that reason (a PutItem would overwrite it); the
//     one difference from a PutItem is that attributes keyfirst does not
//     know are kept. Modify undoes a change fn makes to it; the partial
//     update refuses to change either time ([UpdateLifecycleField]).
//     BatchWriteItem takes neither conditions nor update expressions, so
//     batch puts of an entity with a created time are refused
//     ([ItemCreated]), as those of a versioned entity are.
//   - Both are stored in [TimeKeyLayout], fixed width and UTC, so that
//     they can be index sort keys (by-created, recently updated).
//   - Expires is stored as DynamoDB's TTL requires, a Number of epoch
//     seconds, under the table's [TableSpec.TimeToLive] attribute (which
//     [Table.Create] enables and [Table.Check] finds); a zero time stores
//     none, a time before 1970 and a missing required one
//     ([EntitySpec.ExpiresRequired]) are refused before any request
//     ([ItemExpires]).
//   - Or the expiry is a duration after another time field of T
//     ([EntitySpec.ExpiresAfter], [ExpiresAfter]: 30 days after Created,
//     or after Updated for an expiry that slides with each write). The
//     TTL attribute is then derived, as a key is: every write's plan
//     computes it from the field, and a partial update that stores the
//     field (a Set, a Remove, the updated time it stamps) SETs or REMOVEs
//     it in the same write, so it never goes stale. From the created time
//     it is kept as the created time is (if_not_exists, or the stored
//     created time's). One entity declares Expires or ExpiresAfter, not
//     both ([EntityLifecycle]).
//
// # Expired items
//
// DynamoDB deletes an expired item some time after its expiry (up to a
// few days), and until then every read returns it. keyfirst reads return
// what DynamoDB returns, by default: a read never hides an item it read.
// A query that must not see them says so, with the time it takes as now:
// query.Query.WithoutExpired drops them in keyfirst after the read
// ([Entity.Expired]), the request carrying its key condition alone, and keeps its Limit
// exact by reading the pages that take; the items dropped cost what any
// item read costs, and the capacity reported counts them. A partition
// with many expired items not yet deleted costs that much more to read.
// A collection read drops each item by its own entity's expiry
// ([Table.Expired]; an item of an entity without one is never dropped),
// and a scan drops them the same way (query.Scan.WithoutExpired).
// # Adopting an existing table
//
// Items written by another program have no entity-type attribute, and
// every read refuses them as of an unknown type. An entity that declares
// [EntitySpec.Adopt] recognises them by their table primary key (the
// sort key's prefix, say), which every read returns, whatever an index
// projects: its own reads, [Table.Decode], collections and views then
// decode them as its items ([Table.Classify]). An untyped item whose key
// two entities claim, or none, is a [*ClaimError] with its key, never a
// guess. Every write stores the type attribute; the migrate package's
// backfill stores it on every adopted item (a dry run counts them first,
// Counts.Adopted), after which Adopt can go.
//
// Writes take over an adopted item without waiting for the backfill:
// when the entity's Adopt claims the key of a write (decided in Go,
// before the request), every write path (Put, Replace, Modify, the
// partial Update, Delete, and their transaction actions) guards on
// "of this type or untyped" rather than "of this type", and a versioned
// entity reads an untyped item's missing version as version 0 (Put of
// version 0, or Replace of version 0, takes it; the write stores version
// 1 and the type). An untyped item at a key that another entity claims,
// or none, is still refused ([ErrWrongEntityType]), and a key that this
// entity and another both claim is a [*ClaimError] before any request
// ([ErrAmbiguousEntityType]). [CreateOnly] still means no item at all.
// A transaction's condition check ([Entity.TransactCheck]) still
// requires the stored type.
//
// # Optimistic locking
//
// An entity may name an integer field of T as its version
// ([EntitySpec.Version]). Every write checks and increments it: Put of an
// item with version 0 creates it (failing with [ErrAlreadyExists] if the
// key exists) with version 1; Put of version n and Replace require the
// stored version n and store n+1; Delete requires the stored version. A
// lost update is an error wrapping [ErrVersionConflict], with the expected
// and stored versions in a [*ConditionError], never silent. A version
// field has 32 bits or more, and the write that would store a version its
// field cannot read back is refused ([ItemVersionMax]). Batch writes
// cannot carry conditions, so versioned entities are refused there.
//
// # Unique values
//
// An entity may declare a field of T unique ([EntitySpec.Unique], by its
// Go name): package txn's Unique keeps its values unique by marker items,
// written and deleted with the item in one transaction. No write path
// outside those actions can change or drop a unique value without moving
// its marker: a Put over a stored item, a Replace and their transaction
// actions are guarded, in the same write, by the condition that the
// stored value is the one written (a change of the value fails, storing
// nothing, with a [*ConditionError] whose Err is a [*UniqueValueError]);
// a put that would create an item with a value, a Delete, batch puts and
// deletes (BatchWriteItem takes no condition), an Update that sets or
// removes the field and a Modify whose change sets another value are
// refused before any write with a [*UniqueValueError] naming the txn.Unique
// action to use. An item without the value holds none, and is written
// freely. Updates and Modifies of other fields are unaffected.
//
// # Batches
//
// [Entity.BatchGet] and [Table.BatchWrite] (puts and deletes of several
// entity types, built with [Entity.PutRequest] and [Entity.DeleteRequest])
// split their work into requests of 100 and 25, and retry what DynamoDB
// leaves unprocessed with exponential backoff and full jitter until done,
// until the context ends, or until [Options.MaxAttempts] rounds; what is
// left is reported in a [*BatchWriteError] or [*BatchGetError] wrapping
// [ErrUnprocessed]. An item BatchGet reads but cannot decode does not stop
// it: the [*BatchGetError] names that key, and every key is reported once
// (returned, unprocessed or undecodable). Duplicate keys (numbers compared
// by value) and invalid items are refused before any request. A batch is
// not a transaction: each item succeeds or fails on its own.
//
// A stream of writes too long to hold (an import of millions of items) is
// written with [Table.BatchWriteSeq], from an iter.Seq of requests built
// as they are taken: it holds one request of 25, checks each request of
// 25 whole before sending it and writes it before taking the next, and
// stops at the first bad request with the requests it did not write
// reported; the requests of one key are written in the stream's order.
// The bulk load of one entity type is [Entity.BatchPut], the same stream
// of its items (an iter.Seq[T], a slice through slices.Values), which
// reuses the memory of the 25 items it holds rather than copying each.
//
// # What is refused before any request
//
// keyfirst sends nothing DynamoDB would refuse or silently change: a
// string, set element or map key that is not valid UTF-8 (the SDK would
// send U+FFFD), a number DynamoDB cannot store (NaN, infinities, more than
// 38 significant digits, a magnitude outside 1E-130 to below 1E+126),
// a set that is empty or holds one element twice (numbers compared by
// value), lists and maps nested beyond DynamoDB's [MaxNesting] levels
// ([ItemTooDeep]), anywhere in an item, a key or a query value
// ([*ItemError] naming the attribute and the path inside it). The values
// of a caller's condition and of a read image ([TransactOptions]) get the
// same check, refused as an [*OptionError] naming the option, and every
// expression keyfirst builds is checked again as it is built, so that no
// kind of write can send a value the check of items would refuse. A key number is kept in DynamoDB's
// own text ("-0" is "0", "1.50e2" is "150"), so keys compare as DynamoDB
// compares them. An expression beyond DynamoDB's limits (4,096 bytes, 300
// operators) is refused with [ItemExpression]. Attribute names are names
// on every path, whatever they contain (dots, brackets, spaces, '#', ':').
//
// # Cost
//
// Every operation reports the capacity its requests consumed, in total, on
// the table and per index ([Capacity], [WithCapacity],
// ReturnConsumedCapacity=INDEXES). A write refused by its condition reports
// nothing: DynamoDB's error carries no figures, although AWS bills it.
//
// # Seeing what keyfirst sends
//
// [Table.Observed] binds a table to an [Observer], once: every request
// that any package sends on the binding (the table's own of
// [Table.Create], [Table.Check] and [Table.AddIndex], item operations,
// each request of a batch and its retry rounds, each page of a query, of
// a scan segment and of a shard, each attempt of a transaction, a
// backfill's scans and rewrites, a stream's reads) is shown to it as a
// [Request] in the model's terms (the call, the table, the entity type,
// the index, the key condition with its values, [Request.KeyCondition])
// before it is sent, with the context the request then carries, and with
// its [Result] after (items read and returned, the [Capacity] consumed on
// the table and on each index, the latency, the typed error the call
// returns and DynamoDB's error code: [Result.Err], [Result.Code]). With an
// Observer every request asks for its consumed capacity. Long work
// reports its [Progress] to the same Observer. [Table.Named] and
// [Entity.In] keep it. [SlogObserver] logs with log/slog; the module
// github.com/keyfirst/keyfirst/observe/otelkf makes OpenTelemetry spans
// and metrics. [Send] shows a request of your own to the Observer,
// [SendExplained] with your call's own error. Without an Observer the hook
// costs a nil check.
//
// # Errors
//
// A few sentinels ([ErrNotFound], [ErrAlreadyExists], [ErrVersionConflict],
// [ErrInvalidItem], ...) are matched with errors.Is; typed errors
// ([*SchemaError], [*EntityError], [*ItemError], [*ConditionError],
// [*OpError], ...) carry the facts and are matched with errors.As. The error
// of a derivation stays in the chain: errors.Is(err, keys.ErrSeparator)
// holds for an id that contains the separator.
package keyfirst
