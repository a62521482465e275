// Package stream turns a table's DynamoDB stream into typed changes of its
// entities: what happened to each item (inserted, modified, removed,
// expired by the time to live), its images before and after as the Go
// type T, and what the change did to the item's place in each secondary
// index (entered, left, moved within, stayed), so that "an order left the
// open-orders index" is one call.
//
// # Records
//
// A [Record] is one change of one item, from either source users have:
// DynamoDB Streams' GetRecords ([FromStreams], whose attribute values the
// SDK's attributevalue package converts), or a Lambda event (the module
// github.com/keyfirst/keyfirst/stream/lambdastream, which alone depends on
// aws-lambda-go, so that a module importing only this package does not
// get it). Both go through [FromSource], which tells the operation: a
// deletion by the time to live is [OpExpire] in AWS's form (REMOVE by the
// identity "Service"/"dynamodb.amazonaws.com") and in DynamoDB Local's
// (event name UNKNOWN_TO_SDK_VERSION, no identity). A record that cannot be
// read (an unknown event, an attribute value of an unknown type, keys
// missing, images that are not the operation's) is a [*RecordError].
//
// # Changes
//
// [Decode] decodes a record of one entity type into a [Change] of T; a
// [Router] sends each record of a table of several entity types to the
// handler of its type ([On]). A record of an unknown entity type, of
// another one, or whose type changed between the images is a
// [*TypeError] that keeps the record: reported, never dropped, never
// decoded into the wrong type ([Otherwise] lets the caller decide). A
// change needs both images: records of a stream of another view are
// refused ([ErrStreamView]), and so is, by [NewConsumer], a table whose
// schema does not declare NEW_AND_OLD_IMAGES (keyfirst.TableSpec.Stream)
// or whose live stream differs, found by the table check
// (keyfirst.Table.Diff).
//
// # Transitions
//
// [Change.Transitions] lists, per secondary index (sparse, sharded, any),
// the item's [Movement], computed from the stored images by the rule
// DynamoDB indexes by and keyfirst's write paths follow: an item is in an
// index exactly when it carries every key attribute of the index
// (keyfirst.KeySchema.Contains). For an item written through keyfirst
// these are the attributes Entity.Item derives, all of an index's or none;
// reading them from the stored images rather than recomputing them from the
// decoded T says what DynamoDB did, also for items written under an older
// definition that a backfill has not yet rewritten.
//
// # Consumer
//
// A [Consumer] reads a table's stream through the DynamoDB Streams API, for
// tests and small services: every shard, parents before children; each
// shard's records in order, one batch at a time; a [Checkpoint] (a
// sequence number per shard, plain data for encoding/json) after each
// batch ([Options.Save]), from which a new consumer resumes
// ([Options.Resume]). Delivery is at least once: a handler that must apply
// each record once keeps the sequence number as its idempotency key.
// [Consumer.CaughtUp] returns once every record written before the call is
// handled, so a test on DynamoDB Local needs no sleep; cancelling the
// context ends [Consumer.Run] at once, and it starts no goroutine.
package stream
