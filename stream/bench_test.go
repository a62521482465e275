package stream_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst/stream"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// batch100 is a GetRecords page of 100 MODIFY records of orders closing.
func batch100(b testing.TB) []streams.Record {
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

// Decoding a batch of 100 records into changes (keyfirst: conversion,
// checks, both images decoded, transitions in three indexes) beside the
// same images by hand (hand: the SDK's conversion and attributevalue's
// UnmarshalMap of both images, without checks, type dispatch or
// transitions). TestDecode100TwinsAgree proves that both decode the same
// orders.
func BenchmarkDecode100(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	records := batch100(b)
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range records {
				if _, err := decodeRecord(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range records {
				if _, _, err := unmarshalImages(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// decodeRecord is keyfirst's side of BenchmarkDecode100.
func decodeRecord(r streams.Record) (stream.Change[Order], error) {
	rec, err := stream.FromStreams(shopARN, r)
	if err != nil {
		return stream.Change[Order]{}, err
	}
	return stream.Decode(Orders, rec)
}

// unmarshalImages is the hand-written side of BenchmarkDecode100.
func unmarshalImages(r streams.Record) (old, new Order, err error) {
	for _, x := range []struct {
		img map[string]streams.AttributeValue
		to  *Order
	}{{r.Dynamodb.OldImage, &old}, {r.Dynamodb.NewImage, &new}} {
		item, err := attributevalue.FromDynamoDBStreamsMap(x.img)
		if err != nil {
			return old, new, err
		}
		if err := attributevalue.UnmarshalMap(item, x.to); err != nil {
			return old, new, err
		}
	}
	return old, new, nil
}

// TestDecode100TwinsAgree: both sides of BenchmarkDecode100 decode the
// same orders from each record.
func TestDecode100TwinsAgree(t *testing.T) {
	for _, r := range batch100(t) {
		c, err := decodeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		old, new, err := unmarshalImages(r)
		if err != nil {
			t.Fatal(err)
		}
		if c.Old == nil || c.New == nil || !reflect.DeepEqual(*c.Old, old) || !reflect.DeepEqual(*c.New, new) {
			t.Fatalf("record %s: keyfirst %+v -> %+v, by hand %+v -> %+v", *r.Dynamodb.SequenceNumber, c.Old, c.New, old, new)
		}
	}
}
