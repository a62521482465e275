package stream

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// Op is what a record did to its item.
type Op uint8

// The operations of a [Record].
const (
	OpInsert Op = iota + 1 // the item was created (INSERT)
	OpModify               // the item was written over (MODIFY)
	OpRemove               // the item was deleted by a request (REMOVE)
	OpExpire               // the item was deleted by DynamoDB's time to live
)

var opText = map[Op]string{OpInsert: "insert", OpModify: "modify", OpRemove: "remove", OpExpire: "expire"}

// String returns "insert", "modify", "remove" or "expire".
func (o Op) String() string {
	if s, ok := opText[o]; ok {
		return s
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Identity is a record's userIdentity: on AWS, a deletion by the time to
// live is a REMOVE by the identity of type "Service", principal
// "dynamodb.amazonaws.com".
type Identity struct {
	Type, PrincipalID string
}

// ttlIdentity is the identity of DynamoDB's time to live on AWS.
var ttlIdentity = Identity{Type: "Service", PrincipalID: "dynamodb.amazonaws.com"}

// localTTLEvent is the event name of a deletion by the time to live on
// DynamoDB Local 3.3.1: the Java SDK's name for an unknown operation, with
// the old image, no new image and no user identity.
const localTTLEvent = "UNKNOWN_TO_SDK_VERSION"

// Source is a stream record as each source delivers it, its attribute
// values converted to the dynamodb package's: what [FromSource] reads.
// [FromStreams] builds it from a DynamoDB Streams GetRecords record, the
// module stream/lambdastream from a Lambda event's.
type Source struct {
	EventID   string
	EventName string    // INSERT, MODIFY, REMOVE (DynamoDB Local: UNKNOWN_TO_SDK_VERSION for a TTL deletion)
	Identity  *Identity // nil without userIdentity
	// SourceARN is the stream's ARN (arn:aws:dynamodb:...:table/NAME/stream/LABEL).
	SourceARN      string
	SequenceNumber string
	Time           time.Time // ApproximateCreationDateTime
	View           types.StreamViewType
	Keys, Old, New map[string]types.AttributeValue
}

// Record is one change of one item, read from a stream record of either
// source: its operation (a deletion by the time to live told from a
// request's, in AWS's form and DynamoDB Local's), keys, images and
// position. [Decode] and the [Router] turn it into a typed [Change].
type Record struct {
	EventID string
	Op      Op
	// Table is the table's name, from the stream's ARN ("" when the
	// source gives none).
	Table string
	// Shard is the id of the shard the record was read from, set by the
	// [Consumer] ("" from sources that do not say, as a Lambda event):
	// sequence numbers increase within a shard, so a watermark of the
	// records applied is kept per shard.
	Shard string
	// SequenceNumber is the record's position in its shard, increasing:
	// the idempotency key of an at-least-once consumer.
	SequenceNumber string
	Time           time.Time
	View           types.StreamViewType
	// Keys are the item's primary key attributes; Old and New its images
	// before and after the change (nil when the operation has none).
	Keys, Old, New map[string]types.AttributeValue
}

// FromSource reads a record delivered by any source: it finds the
// operation and checks that the images are those of the operation. Errors
// are [*RecordError] values.
func FromSource(s Source) (Record, error) {
	r := Record{EventID: s.EventID, Table: tableOfARN(s.SourceARN), SequenceNumber: s.SequenceNumber, Time: s.Time,
		View: s.View, Keys: s.Keys, Old: s.Old, New: s.New}
	fail := func(p RecordProblem, detail string) (Record, error) {
		return Record{}, &RecordError{EventID: s.EventID, SequenceNumber: s.SequenceNumber, Problem: p, Detail: detail}
	}
	if s.SequenceNumber == "" {
		return fail(RecordSequence, "every record has one; was it truncated?")
	}
	hasOld, hasNew := s.Old != nil, s.New != nil
	switch s.EventName {
	case string(streams.OperationTypeInsert):
		r.Op = OpInsert
	case string(streams.OperationTypeModify):
		r.Op = OpModify
	case string(streams.OperationTypeRemove):
		r.Op = OpRemove
		if s.Identity != nil && *s.Identity == ttlIdentity {
			r.Op = OpExpire
		}
	case localTTLEvent:
		if s.Identity != nil || !hasOld || hasNew {
			return fail(RecordOperation, fmt.Sprintf("event %q is a deletion by the time to live only with the old image, no new image and no identity", s.EventName))
		}
		r.Op = OpExpire
	default:
		return fail(RecordOperation, fmt.Sprintf("event %q; want INSERT, MODIFY or REMOVE", s.EventName))
	}
	if len(s.Keys) == 0 {
		return fail(RecordKeys, "the record has no keys")
	}
	if s.View != types.StreamViewTypeNewAndOldImages {
		return r, nil // checked where both images are needed (Decode)
	}
	wantOld, wantNew := r.Op != OpInsert, r.Op == OpInsert || r.Op == OpModify
	if hasOld != wantOld || hasNew != wantNew {
		return fail(RecordImages, fmt.Sprintf("%v with old image %t, new image %t; want %t, %t", r.Op, hasOld, hasNew, wantOld, wantNew))
	}
	return r, nil
}

// tableOfARN returns the table's name in a stream's ARN, "" when arn is
// not one.
func tableOfARN(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// FromStreams reads a record of DynamoDB Streams' GetRecords, from the
// stream of ARN streamARN (GetRecords' records do not carry it). Errors are
// [*RecordError] values: an attribute value of no known type is
// [RecordAttribute].
func FromStreams(streamARN string, r streams.Record) (Record, error) {
	s := Source{EventID: aws.ToString(r.EventID), EventName: string(r.EventName), SourceARN: streamARN}
	if id := r.UserIdentity; id != nil {
		s.Identity = &Identity{Type: aws.ToString(id.Type), PrincipalID: aws.ToString(id.PrincipalId)}
	}
	d := r.Dynamodb
	if d == nil {
		return Record{}, &RecordError{EventID: s.EventID, Problem: RecordSequence, Detail: "the record has no dynamodb part"}
	}
	s.SequenceNumber, s.Time, s.View = aws.ToString(d.SequenceNumber), aws.ToTime(d.ApproximateCreationDateTime), types.StreamViewType(d.StreamViewType)
	for _, m := range []struct {
		name string
		from map[string]streams.AttributeValue
		to   *map[string]types.AttributeValue
	}{{"Keys", d.Keys, &s.Keys}, {"OldImage", d.OldImage, &s.Old}, {"NewImage", d.NewImage, &s.New}} {
		if m.from == nil {
			continue
		}
		var err error
		if *m.to, err = attributevalue.FromDynamoDBStreamsMap(m.from); err != nil {
			return Record{}, &RecordError{EventID: s.EventID, SequenceNumber: s.SequenceNumber, Problem: RecordAttribute, Detail: m.name, Err: err}
		}
	}
	return FromSource(s)
}
