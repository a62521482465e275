// Package query reads DynamoDB item collections with key conditions only:
// the full partition key of the table or of an index, and at most one sort
// key condition built from typed values. There is no method that adds a
// filter expression and no Scan of a table, so what a query reads is what
// it returns: [Query.Limit] is exact, and the capacity a page reports is
// the price of its items.
//
// # Queries
//
// Every query starts from an access pattern ([keyfirst.Pattern]): the
// index and the Go types of its keys, declared once and bound by the
// entity that writes it, so that no index name or encoded key value is
// ever written by hand. [On] reads an entity's items (decoded into T),
// [CollectionOn] a mixed item collection (each item decoded into its own
// entity type, for a type switch). The partition key is a Go value,
// encoded by the pattern as the entity's writes encode it; its type is
// the pattern's (a string, a keys.T2 for a key of two segments), so a
// value of another type does not compile:
//
//	q := query.On(orders, ordersByStatus, "c1").
//		Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1)).
//		Limit(10)
//
// A query is a value: every method returns a modified copy.
// [Query.Sort] takes a [keys.Cond] and its construction error, so that a
// keys call passes straight in. The condition must be built from the
// pattern's own sort key definition ([keyfirst.Pattern.SortDefinition]);
// for a collection, from one of the definitions the patterns bound on the
// index store in its sort key (REPO#<name>, ISSUE#<number>, ...). A
// condition from another definition, even one of the same Go types, would
// match nothing: it is refused before any request
// ([ProblemForeignCondition]). On a sort key of one attribute the
// condition compares the concatenated key
// (CANCELLED#2019-07-01T00:00:00.000000); on a native multi-attribute key
// (up to four attributes) the same condition applies attribute by
// attribute, equality on the leading ones and one comparison on the next,
// as DynamoDB requires. A sort key stored as a value ([keyfirst.Str],
// [keyfirst.ID], [keyfirst.Num], [keyfirst.Bin]) takes, with
// [Query.SortValue], the typed condition its own side builds, its values
// encoded and checked as the writes did:
//
//	orderID := keyfirst.ID("OrderId")
//	byOrderID := keyfirst.OnTable(keyfirst.ID("CustomerId"), orderID)
//	q := query.On(orders, byOrderID, "c1").SortValue(orderID.Between("o100", "o199"))
//
// A condition of another side (even of the same attribute name) is
// refused before any request ([ProblemForeignCondition]). The first
// attribute of a tuple sort key ([keyfirst.Tuple2] .. Tuple4), and a
// collection's sort key, take with [Query.SortAttr] an [AttrCond] built
// with [Attr]: =, <, <=, >, >=, BETWEEN and begins_with, nothing else. In
// an entity's query of a pattern whose sort key holds keys of a
// definition or a value ([On]) a raw condition is refused
// ([ProblemForeignCondition]): its value is not checked as the writes
// checked theirs, so a misspelt begins_with("CANCELED#") would find
// nothing.
// [Query.Desc] reads newest first at the same cost; [Query.ConsistentRead]
// (not on a GSI) and [Query.After] complete it.
//
// A pattern of the table reads the table: the items of one partition of
// the table's key are On(e, tablePattern, pk). A pattern the entity (or,
// for a collection, no entity of the table) does not bind is refused
// before any request ([ProblemPattern]), and so a partition key value its
// codec refuses ([ProblemPartition]). A key that no pattern describes is
// read through a pattern whose sides are raw ([keyfirst.Str],
// [keyfirst.Num], [keyfirst.Bin]) bound with [keyfirst.Func].
//
// # Whole items and views
//
// A query decodes whole items, never part of one: a T with some fields
// left at their zero values would pass for a whole item, and a write of it
// (which stores the item it is given) would erase what the read did not
// return. So [On], [CollectionOn] and [ScanOn] refuse, before any request
// ([ProblemProjection]), an index that does not project every attribute of
// what they decode: of T for an entity read; for a collection, the
// entity-type attribute and every attribute of each entity type that can
// be in the index (its key attributes derived or fields of its T). The
// table and ALL projections hold everything; a KEYS_ONLY index holds the
// table's and its own key attributes; an INCLUDE index adds the attributes
// it names and the entity-type attribute, which keyfirst adds to every
// INCLUDE projection. GSIs and LSIs are treated alike (DynamoDB would
// fetch the rest of an LSI's items from the table, at the price of a
// second read per item; keyfirst does not do it behind the caller's back).
//
// Whether an item is whole is decided by the projection, not by the item:
// a T read from an index is whole when the index holds every attribute of
// T's current definition (every field, omitempty ones included). Then an
// attribute the item lacks is one the table's item lacks too (an omitempty
// field left empty), and the T is what a read of the table gives; where
// the index does not hold one, nothing in the item tells an attribute left
// out by the projection from one absent. The index may also hold items
// that the current definitions do not put there: written by an older
// definition (under an attribute a field used to be stored under) or
// tagged by another program. An entity read stops at such an item of
// another type ([*DecodeError]), and at none of its own type, which the
// index holds whole; a collection delivers an item of a type the index
// does not hold whole as an [Unknown], never as a partial T.
//
// [View] reads what such an index holds, or fewer attributes of whole
// items, into P, a struct of the caller's:
//
//	type orderStatus struct {
//		ID     string `dynamodbav:"OrderId"`
//		Status Status `dynamodbav:"Status"`
//	}
//	page, err := query.View[orderStatus](q).Page(ctx, client)
//
// P's fields are the request's projection (with the key attributes), and
// each must be an attribute the index holds, or the view is refused before
// any request: a field it lacks would always read as zero. A P is not the
// entity's T, so no write takes it; to change the item, read it whole by
// its key. [ScanView] does the same for a [Scan].
//
// # Partial indexes: the keys, then the items
//
// A KEYS_ONLY or INCLUDE index is the cheap kind to write (seed 002: a
// GSI costs write units by the size of what it projects), and [On]
// refuses to decode T from it. [Keys] makes the follow-up read explicit,
// two steps visible in the call: Keys(q).Fetch(ctx, client) reads one
// page of the index's keys (exactly min(Limit, remaining)), then the
// whole items from the table with one BatchGetItem per 100 keys, the
// unprocessed keys retried, the items in the index's order
// ([KeysQuery.Fetch]). An item deleted between the two reads is in
// [Fetched.Missing], never silently dropped; the two reads are two
// snapshots, so an item changed in between is returned as the table
// holds it at the fetch. [Fetched] reports each step's capacity apart.
//
// The trade, measured on DynamoDB Local for seed 002's open-orders index
// (orders of 2.9 KB, TestOpenOrdersTrade):
//
//   - a write of an open order: 6 WCU with the index projecting ALL (3
//     on the table, 3 on the index), 4 WCU with KEYS_ONLY (3 + 1);
//   - a read of 50 open orders: 18 RCU through the ALL index (one
//     Query, 50 x 2.9 KB in 4 KB blocks, half a unit each), 25.5 RCU
//     through KEYS_ONLY + fetch (0.5 for the Query of the keys, 25 for
//     the BatchGetItem, which rounds each item up to 4 KB).
//
// So KEYS_ONLY saves a third of every write's units and costs about 40 %
// more per item read: it pays where the index is written more often than
// its items are read, or where most reads need the keys only.
//
// # Reading
//
// The terminal calls take a context and a client (*dynamodb.Client, or
// anything with its Query method: [keyfirst.QueryAPI]), check the query,
// and return its first problem as an [*Error] before sending anything
// (among them, every key value of the query, partition values, sort
// conditions and the cursor's key alike, must be a value DynamoDB stores
// as given: a string of valid UTF-8, which the SDK would otherwise send
// with U+FFFD for each invalid byte, and a number DynamoDB accepts):
//
//   - [Query.Page] reads one page: exactly min(Limit, remaining) items
//     over as many requests as needed, or one DynamoDB response without a
//     limit; [Page.Next] resumes after its last item.
//   - [Query.All] is an [iter.Seq2] over every item, up to the limit,
//     sending each request when the loop needs it. It is single-use.
//   - [Query.Collect] gathers All into a slice.
//
// With a limit, each request asks DynamoDB for the items still missing,
// so a query never reads an item it does not return and sends no request
// after its last item.
//
// # Expired items
//
// A query returns the items whose expiry ([keyfirst.EntitySpec.Expires])
// has passed until DynamoDB deletes them, as DynamoDB does.
// [Query.WithoutExpired] drops them after the read: Limit stays exact
// (more pages are read), the capacity reported includes the items
// dropped, and [Page.Expired] counts them. A collection drops each item
// by its own entity's expiry ([keyfirst.Table.Expired]): the items of an
// entity without one are never dropped. [Scan.WithoutExpired] drops
// them from a scan the same way.
//
// # Items that do not decode
//
// A table lives longer than its code: it may hold items of an entity type
// no longer registered, or that keyfirst did not write. A [CollectionOn] query
// delivers such an item as an [Unknown] (its type and attributes), and so
// an item of a registered type read through an index that does not hold
// all of that type (see above), for the type switch to handle: it counts
// as an item for the limit and the cursor moves past it, so it neither
// vanishes nor blocks the collection. An
// entity read ([On]) that meets an item of another entity type, and any
// read that meets an attribute that does not fit its field, stops before
// the item with a [*DecodeError]: the page's cursor resumes at the item
// (to read it again after a fix), the error's Skip after it (to read
// past it).
//
// # Cursors
//
// A [Cursor] resumes exactly after the last item returned, also when a
// loop over All breaks in the middle of a page ([keyfirst.WithNext]). It holds that
// item's key, is bound to its query (table, index, sort condition,
// direction: [ErrCursorMismatch]), is refused when its key is not a key
// the query can return (another partition, outside the sort key condition,
// not a key of the index: [ErrCursorPartition]) or is not written as the
// library writes it ([ErrCursorMalformed]), and, with
// [keyfirst.WithCursorKey],
// carries an HMAC-SHA256 ([ErrCursorTampered]). An unsigned cursor is
// checked as strictly as the library can check it: only the signature
// tells one the library made from one written by hand in its form.
// [Query.CheckKey] checks a key as a cursor's, and [Query.ResumeKey]
// returns the key a cursor holds, checked, without a request: a reader
// that merges queries of several partitions (the shard package) checks
// its own cursors with them.
//
// # Scans
//
// [ScanOn] reads the whole secondary index of a pattern that the schema
// declares Scannable (a sparse index of one entity type, where reading it
// all is the access pattern), in parallel segments ([Scan.Segments]). A
// Scan of the table, or of an index not declared scannable, is refused
// with [ProblemNotScannable].
//
// # Cost
//
// Every request asks for the consumed capacity (INDEXES): each [Page]
// reports its own in [Page.Capacity], and [keyfirst.WithCapacity] adds up every
// request of a call, for [Query.All], [Query.Collect] and [Scan.All].
//
// # Errors
//
// A query that cannot be sent is an [*Error] wrapping [ErrInvalidQuery],
// with a [Problem] and the table, index and attribute concerned; a
// refused cursor also matches its ErrCursor sentinel, and a keys or schema
// error that caused the problem is wrapped too. A failed request is a
// [*RequestError] wrapping the SDK's error (or the context's). An item
// that cannot be decoded is a [*DecodeError] wrapping the keyfirst
// package's error.
package query
