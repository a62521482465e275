// Package shard declares write-sharded global secondary indexes: an index
// whose partition key has few values (a status such as OPEN) split into
// shards, OPEN#0 .. OPEN#<N-1>, so that its writes spread over N
// partitions instead of one.
//
// # When to shard
//
// Every write of an item that an index holds is also a write on the index,
// on the partition of the item's index partition key. A partition takes
// about 1,000 WCU/s safely (about 3,000 at most); beyond that DynamoDB
// throttles the index, and, through back-pressure, the writes to the base
// table, with the reason IndexWriteKeyRangeThroughputExceeded, which names
// the index. A GSI keyed on a status puts every open item in one
// partition: it needs sharding once the peak write rate on that partition
// nears the ceiling. Below it, one partition ("OPEN", a sparse index of the
// sparse package or [github.com/keyfirst/keyfirst.If]) reads with one
// query and is the better design.
//
// # How many shards
//
// [Count] gives ceil(peak WCU/s / 800), 800 leaving a margin under the
// safe 1,000. Seed 002: 2,000 writes/s of items under 1 KB is 2,000 WCU/s
// on the index, 2,000 / 800 = 2.5, so 3 shards. Size on the index's write
// units, not on writes: an index write costs ceil(projected size / 1 KB)
// units, so 2,000 writes/s of items of 2.5 KB on an index that projects ALL
// is 6,000 WCU/s and needs 8 shards ([CountForItems]). Too few shards leave
// the partition hot; too many add one query per shard to every read. The
// count is bounded by [MaxShards] (100; see its doc for why).
//
// # Declaring a sharded index
//
// The index is an access pattern ([keyfirst.OnIndex]) whose partition side
// is one [keyfirst.Str] attribute; [New] adds how items spread over the
// shards ([Spec]), the table declares the pattern's index, and the entity
// takes [Index.Binding] among its keys. Seed 002 as written, whose orders
// keep their date in order_date:
//
//	type Order struct {
//		ID     string `dynamodbav:"order_id"`
//		Status string `dynamodbav:"status"`
//		Date   string `dynamodbav:"order_date"` // 2024-04-01T09:15:00
//	}
//
//	var (
//		orderByID  = keyfirst.OnTable(keyfirst.ID("order_id"), keyfirst.NoSort()) // the table's key is the field order_id
//		orderDate  = keyfirst.Str("order_date") // the sort side: its conditions are typed
//		openByDate = keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Str("open_status_shard"), orderDate)
//		openOrders = keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{
//			Base:      "OPEN",
//			Shards:    shard.Count(2000), // 3
//			Field:     "ID",
//			SortField: "Date",
//			When:      func(o Order) bool { return o.Status == "OPEN" },
//		}))
//		Shop   = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: orderByID, GSIs: []keyfirst.Index{openByDate.Index()}}))
//		Orders = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Order]{
//			Type: "Order",
//			Keys: []keyfirst.Binding{orderByID.Fields("ID"), openOrders.Binding()},
//		}))
//	)
//
// The binding is the root package's one write mechanism
// ([keyfirst.FuncPartition], under [keyfirst.If] when Spec.When is set),
// so every write path (Put, Replace, Modify, the puts of BatchWrite,
// transactions, Refresh and backfills, [Index.Reshard]) SETs
// open_status_shard = "OPEN#<n>" while the order is open and REMOVEs it in
// the write that closes it: seed 002's create_order, and its close_order,
// SET status = "CLOSED" REMOVE open_status_shard. The sort key is the
// field (Spec.SortField): order_date is stored once, as the order's own
// attribute, never REMOVEd, and it can be the sort key of the table's
// other indexes too (the seed's OrdersByStatusDate); open_status_shard
// alone decides whether an order is in the index. An open order without a
// valid order_date is refused before any request (an empty one by
// DynamoDB's rule for index keys, an omitted one because the index could
// not hold it). Without When every item is in the index. A sort key that
// is not a field as it is (a composite of several fields, a date in
// another form) is derived instead by Spec.Sort, in an attribute of its
// own that the item gets and loses with open_status_shard. Only a global
// secondary index can be sharded: a local one shares the table's
// partition key.
//
// # Which shard: the frozen hash
//
// By default (Spec.Field) an item's shard is computed from one of its
// fields, its id: a rewrite of the same item lands on the same shard (no
// extra index writes), and a point read can compute where it is. The
// function is frozen and seedless, so that any program in any language
// finds the same shard:
//
//	shard = FNV-1a-32(UTF-8 bytes of the field) mod Shards
//
// FNV-1a 32: h = 2166136261; for each byte b: h = (h XOR b) * 16777619 mod
// 2^32; the modulo is taken on the unsigned 32-bit h. The partition value
// is Base, '#' and the shard number in decimal without padding: OPEN#0 ..
// OPEN#9. [Hash] computes h; [Index.Shard] gives an item's shard. An empty
// field on an item that belongs to the index would put every such item on
// one shard: it fails the write before any request ([PickEmptyField]).
//
// Spec.Pick replaces the hash with the caller's function (a tenant's
// dedicated shard, say); its result is checked on every write. There is
// deliberately no random suffix: a shard re-drawn on every write moves the
// item between partitions at each update, which costs two index writes (a
// delete and an insert) instead of one and makes a point read impossible.
//
// # Reading
//
// [Query] reads a sharded index as one query, with the query package's
// grammar (Sort, SortValue, SortAttr, Desc, Limit, After; Page, All,
// Collect): seed 002's list_open_orders(prefix) is
// shard.Query(Orders, openOrders).SortValue(orderDate.BeginsWith(prefix)).Desc(),
// the condition built by the pattern's sort side. Every
// partition [Index.ReadPartitions] returns is queried with query.On and
// the same condition and direction, concurrently ([Reader.Concurrency]),
// and the results are merged by the index's sort key, then the table's
// key; the items of a sort value are yielded as soon as every shard that
// can still hold items has shown one past it. Limit n returns exactly the
// first n items of the merged order. A page ends with one [Cursor]: the
// last item's place in the merged order and every shard's position. An error in one
// shard fails the read with a [*ShardError] naming the shard; breaking
// out of All, cancelling the context or an error stops every shard query
// before the call returns. However a call stops, [keyfirst.WithNext] receives
// the cursor after the last item it returned: the read resumes from it
// with no item repeated or skipped. [Cost] reports the requests, items
// read and capacity of each shard and in total. A read goes through the
// declaration whose Binding the entity holds: another [New] of the same
// pattern (another shard count would read some shards only) is refused
// before any request ([ReadBinding]).
//
// Fetching: by default each shard is first asked for its share of the
// Limit with a margin: Limit/shards plus three standard deviations of a
// shard's share of Limit items spread evenly (a binomial count), plus one
// (13 per shard for 50 items over 10 shards). With items spread by the
// frozen hash one round trip almost always suffices, reading about 2.6
// items per item returned for 50 over 10 shards. When a shard still runs
// out while the merge needs items, it is asked again (twice its last
// request, up to the items missing), and so is, in the same round trip,
// every other shard that has more items and fewer buffered than its share
// of the items still missing: uneven shards (a Pick that favours one)
// cost a second round trip, not a read of Limit items everywhere.
// [Reader.LatencyFirst] asks every shard for Limit items at once: one
// round trip whatever the spread, but Limit items read per shard (10 per
// item returned over 10 shards). Without Limit, each shard query reads
// one DynamoDB page at a time.
//
// Measured (BenchmarkFanout, 2026-12-03, medians of 5 interleaved rounds
// on a quiet 2-core machine: the newest 50 of 2,000 open orders over 10
// shards; DynamoDB Local's answers recorded once, then replayed 20 ms
// after every request, as DynamoDB answers however many partitions are
// read at once): the default 1.08x one query of a single partition
// holding the same items (22.2 ms against 20.6 ms), 10 requests, 2.6
// items read per item returned; 1.01x a hand-written
// goroutines-and-heap reader that sends the same requests. Over 30 shards
// (BenchmarkFanout30) the default is 1.17x the single query (30 requests,
// 4.2 read per returned) and 1.06x the hand-written reader: the client's
// CPU for 30 responses shows on two cores. LatencyFirst reads 10 (30) per
// item returned; the shards read one after the other cost 10x (30x) the
// single query.
//
// Equal sort values: the merged order is by the index's sort key, then by
// the table's key, whatever the shards. DynamoDB orders the items of one
// partition that share the index's sort value by an internal hash of
// their table key, so the merge reads a run of equal sort values whole
// from every shard (buffered in memory) before it yields it in table key
// order; a Limit that ends inside a long run still reads all of it. An
// index without a sort key has no order to merge by (and would be one
// run): its read streams shard by shard (shard 0 first, last with Desc),
// each shard in DynamoDB's order, buffering no shard whole; its cursor
// holds each shard's position after its last item, so such a read is not
// exact while a re-shard moves items.
//
// # Changing the shard count
//
// Set Spec.Shards to the new count and Spec.PreviousShards to the old one
// and deploy: writes use the new count at once (an item rewritten by the
// service moves to its new shard in that write) and reads cover
// max(Shards, PreviousShards) shards. Then run [Index.Reshard] until it
// returns an empty Next (it is resumable: [WithCheckpoint], [WithItems]
// for a chunk of work per run, [WithProgress] to store the checkpoint);
// it rewrites, through the entity's one write path, every item not on the
// shard the new count gives it; a checkpoint, like a [Cursor], belongs to
// its table (the entity's binding) and index, and another's is refused
// before any request. Then deploy without PreviousShards. Each deployment
// binds its entity and reads through one declaration, as every read must
// (see Reading). (A
// [github.com/keyfirst/keyfirst/migrate] backfill moves them too, within
// a write budget, as part of a Scan of the whole table: the tool when
// several definitions change at once; Reshard reads only the index's
// shards.)
//
// Reads stay exact throughout, and a [Cursor] made before the change
// resumes after it: a cursor holds the last item's place in the merged
// order and, for each shard, where that item's run of equal sort values
// starts; a resumed read queries each shard from there (a shard the
// cursor does not know from its start) and skips what comes at or before
// the place. An item that moved between two calls keeps its place, so
// it is neither missed nor repeated (TestReshardWhileReading pages
// through 300 orders, 7 at a time, while the pass moves 40 items between
// pages, from 3 shards to 8). The one reservation is a move during one
// round of shard queries: the item can be read on both shards (the merge
// drops the repeat) or, if its new shard was queried before the move and
// its old one after, on neither in that call.
package shard
