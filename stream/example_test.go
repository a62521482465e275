package stream_test

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst/stream"
)

// An order closes: the MODIFY record of DynamoDB Streams, decoded into a
// change of Order, says it left the open-orders indexes and moved within
// the customer's index.
func ExampleDecode() {
	s := func(v string) streams.AttributeValue { return &streams.AttributeValueMemberS{Value: v} }
	order := func(status string) map[string]streams.AttributeValue {
		item := map[string]streams.AttributeValue{"PK": s("ORDER#o1"), "_type": s("Order"), "order_id": s("o1"),
			"customer_id": s("c1"), "status": s(status), "order_date": s("2026-06-01"), "total": &streams.AttributeValueMemberN{Value: "5"},
			"cust": s("CUSTOMER#c1"), "status_date": s(status + "#2026-06-01")}
		if status == "OPEN" {
			item["open_bucket"], item["open_shard"] = s("OPEN"), s("OPEN#2")
		}
		return item
	}
	rec, err := stream.FromStreams("arn:aws:dynamodb:us-east-1:123456789012:table/stream-shop/stream/2026-06-01T00:00:00.000", streams.Record{
		EventID: aws.String("e1"), EventName: streams.OperationTypeModify,
		Dynamodb: &streams.StreamRecord{SequenceNumber: aws.String("100"), StreamViewType: streams.StreamViewTypeNewAndOldImages,
			ApproximateCreationDateTime: aws.Time(time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)),
			Keys:                        map[string]streams.AttributeValue{"PK": s("ORDER#o1")}, OldImage: order("OPEN"), NewImage: order("CLOSED")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := stream.Decode(Orders, rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Op, c.SequenceNumber, c.Old.Status, "->", c.New.Status)
	for _, t := range c.Transitions {
		fmt.Println(t.Index, t.Movement)
	}
	fmt.Println(c.Movement("open-orders") == stream.Left)
	// Output:
	// modify 100 OPEN -> CLOSED
	// open-orders left
	// open-sharded left
	// by-customer moved
	// true
}
