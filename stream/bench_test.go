package stream_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst/stream"
)

// batch100 is a GetRecords page of 100 MODIFY records of orders closing.
func batch100(b *testing.B) []streams.Record {
	out := make([]streams.Record, 100)
	for i := range out {
		o := Order{ID: fmt.Sprintf("o%03d", i), Customer: "c1", Status: "OPEN", Date: "2026-06-01", Total: int64(i)}
		closed := o
		closed.Status = "CLOSED"
		old, err := Orders.Item(o)
		if err != nil {
			b.Fatal(err)
		}
		new, err := Orders.Item(closed)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = streams.Record{EventID: aws.String("e"), EventName: streams.OperationTypeModify, Dynamodb: &streams.StreamRecord{
			SequenceNumber: aws.String(fmt.Sprint(i + 1)), StreamViewType: streams.StreamViewTypeNewAndOldImages,
			Keys:     map[string]streams.AttributeValue{"PK": &streams.AttributeValueMemberS{Value: "ORDER#" + o.ID}},
			OldImage: streamItem(b, old), NewImage: streamItem(b, new)}}
	}
	return out
}

// Decoding a batch of 100 records into changes: conversion, checks, both
// images decoded, transitions in three indexes.
func BenchmarkDecode100(b *testing.B) {
	records := batch100(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range records {
			rec, err := stream.FromStreams(shopARN, r)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := stream.Decode(Orders, rec); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The same images by hand: the SDK's conversion and attributevalue's
// UnmarshalMap of both images, without checks, type dispatch or
// transitions.
func BenchmarkUnmarshalMap100(b *testing.B) {
	records := batch100(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range records {
			for _, img := range []map[string]streams.AttributeValue{r.Dynamodb.OldImage, r.Dynamodb.NewImage} {
				item, err := attributevalue.FromDynamoDBStreamsMap(img)
				if err != nil {
					b.Fatal(err)
				}
				var o Order
				if err := attributevalue.UnmarshalMap(item, &o); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
