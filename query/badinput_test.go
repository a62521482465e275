package query_test

import (
	"context"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// canned is a client that answers every Query with the same items: enough
// to obtain real cursors without DynamoDB Local.
type canned struct {
	items []map[string]types.AttributeValue
	last  map[string]types.AttributeValue
	ins   []*dynamodb.QueryInput
}

func (c *canned) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cp := *in
	c.ins = append(c.ins, &cp)
	items := c.items
	if in.Limit != nil && int(*in.Limit) < len(items) {
		items = items[:*in.Limit]
	}
	return &dynamodb.QueryOutput{Items: items, LastEvaluatedKey: c.last,
		ConsumedCapacity: &types.ConsumedCapacity{CapacityUnits: aws.Float64(0.5)}}, nil
}

// cursorOf returns the Next cursor of q's first page, read from a canned
// client that holds order o.
func cursorOf(t *testing.T, s shop, q query.Query[Order], o Order, optFns ...func(*keyfirst.Options)) query.Cursor {
	t.Helper()
	it, err := s.orders.Item(o)
	noErr(t, err)
	page, err := q.Limit(1).Page(context.Background(), &canned{items: []map[string]types.AttributeValue{it}, last: it}, optFns...)
	noErr(t, err)
	if page.Next == "" {
		t.Fatal("no cursor")
	}
	return page.Next
}

// Bad inputs: each is refused with its typed error, by every terminal
// call, and no request is sent (the client fails the test if called).
func TestBadInputsSendNothing(t *testing.T) {
	s := newShop(t, "shop")
	key := []byte("0123456789abcdef0123456789abcdef")
	byCustomer := query.Of(s.orders).Index("ByStatusDate").Partition(query.S("c1"))
	native := query.Of(s.orders).Index("ByStatusDateNative").Partition(query.S("c1"))
	jul1 := micro("2019-07-01T00:00:00")
	threeSegments := keys.Must(keys.NewKey3(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro), keys.Uint[uint32](4)))
	fourSegments := keys.Must(keys.NewKey4(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro), keys.Uint[uint32](4), keys.ID[string]()))

	order := Order{CustomerID: "c1", ID: "o1", Status: Cancelled, Date: jul1}
	fromC1 := cursorOf(t, s, byCustomer, order)
	signed := cursorOf(t, s, byCustomer, order, keyfirst.WithCursorKey(key))
	tampered := []byte(signed)
	tampered[3] ^= 1 // a byte of the body, still valid base64url

	noSortKey, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "plain", PartitionKey: keyfirst.StringAttr("PK"),
		GSIs: []keyfirst.Index{{Name: "ByScore", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("Board")},
			SortKey: []keyfirst.Attribute{keyfirst.NumberAttr("Score")}}}})
	noErr(t, err)
	plain := query.Collection(noSortKey)

	tests := []struct {
		name    string
		q       query.Query[Order]
		opts    []func(*keyfirst.Options)
		problem query.Problem
		is      error // a cause that errors.Is must find, if any
	}{
		// The proofs' list.
		{"consistent read on a GSI", byCustomer.ConsistentRead(), nil, query.ProblemConsistentRead, nil},
		{"condition on a non-leading attribute", native.SortAttr(query.Attr("OrderDate").Ge(query.S("2019-07-01T00:00:00.000000"))),
			nil, query.ProblemNotLeading, nil},
		{"prefix longer than the key's segments", native.Sort(threeSegments.With2(Cancelled, jul1).Eq(7)), nil, query.ProblemPrefix, nil},
		{"prefix with more fixed segments than the key", native.Sort(fourSegments.With3(Cancelled, jul1, 7).BeginsWith()), nil, query.ProblemPrefix, nil},
		{"empty begins_with prefix", query.Of(s.orders).Partition(query.Encoded(customerPK.Encode("c1"))).SortAttr(query.Attr("SK").BeginsWith("")),
			nil, query.ProblemPrefix, nil},
		{"Limit 0", byCustomer.Limit(0), nil, query.ProblemLimit, nil},
		{"Limit -1", byCustomer.Limit(-1), nil, query.ProblemLimit, nil},
		{"Limit MinInt", byCustomer.Limit(math.MinInt), nil, query.ProblemLimit, nil},
		{"cursor from another query", native.After(fromC1), nil, query.ProblemCursor, query.ErrCursorMismatch},
		{"cursor from another direction", byCustomer.Desc().After(fromC1), nil, query.ProblemCursor, query.ErrCursorMismatch},
		{"tampered cursor", byCustomer.After(query.Cursor(tampered)), []func(*keyfirst.Options){keyfirst.WithCursorKey(key)}, query.ProblemCursor, query.ErrCursorTampered},
		{"unsigned cursor, keyed query", byCustomer.After(fromC1), []func(*keyfirst.Options){keyfirst.WithCursorKey(key)}, query.ProblemCursor, query.ErrCursorTampered},
		{"signed cursor, another key", byCustomer.After(signed), []func(*keyfirst.Options){keyfirst.WithCursorKey([]byte("another key, 16+ bytes"))}, query.ProblemCursor, query.ErrCursorTampered},
		{"signed cursor, no key", byCustomer.After(signed), nil, query.ProblemCursor, query.ErrCursorMismatch},
		{"cursor whose partition differs", query.Of(s.orders).Index("ByStatusDate").Partition(query.S("c2")).After(fromC1),
			nil, query.ProblemCursor, query.ErrCursorPartition},
		{"garbage cursor", byCustomer.After("%%%"), nil, query.ProblemCursor, query.ErrCursorMalformed},
		{"huge cursor", byCustomer.After(query.Cursor(strings.Repeat("A", 1<<20))), nil, query.ProblemCursor, query.ErrCursorMalformed},

		// Index and partition.
		{"unknown index", query.Of(s.orders).Index("Nope").Partition(query.S("c1")), nil, query.ProblemIndex, keyfirst.ErrInvalidSchema},
		{"no partition key", query.Of(s.orders), nil, query.ProblemPartition, nil},
		{"two values for one attribute", query.Of(s.orders).Partition(query.S("a"), query.S("b")), nil, query.ProblemPartition, nil},
		{"number for a string attribute", query.Of(s.orders).Partition(query.N(7)), nil, query.ProblemPartition, nil},
		{"empty partition value", query.Of(s.orders).Partition(query.S("")), nil, query.ProblemPartition, nil},
		{"zero Value", query.Of(s.orders).Partition(query.Value{}), nil, query.ProblemPartition, nil},
		{"partition value too long", query.Of(s.orders).Partition(query.S(strings.Repeat("x", 2049))), nil, query.ProblemPartition, nil},
		{"keys error in the partition value", query.Of(s.orders).Partition(query.Encoded(customerPK.Encode("a#b"))), nil, query.ProblemPartition, keys.ErrSeparator},
		{"NaN", query.Of(s.orders).Partition(query.N(math.NaN())), nil, query.ProblemPartition, nil},
		{"partition value not UTF-8", query.Of(s.orders).Partition(query.S("CUST#c\xff")), nil, query.ProblemPartition, nil},
		{"encoded value not UTF-8", query.Of(s.orders).Partition(query.Encoded("CUST#c\xfd", nil)), nil, query.ProblemPartition, nil},
		{"native part not UTF-8", query.Of(s.orders).Index("ByCustomerStatus").Partition(query.Strings([]string{"c1", "\xfe"}, nil)...),
			nil, query.ProblemPartition, nil},
		{"cursor not UTF-8", byCustomer.After(mangle(t, fromC1, "CANCELLED#", "CANCELLED\xff")), nil, query.ProblemCursor, query.ErrCursorMalformed},

		// Sort key conditions.
		{"keys error in the condition", byCustomer.Sort(statusDate.With1("BOGUS").Ge(jul1)), nil, query.ProblemSortKey, keys.ErrNotInEnum},
		{"anchor condition on a native key", native.Sort(statusDate.At(Cancelled, jul1).Ge()), nil, query.ProblemSortKey, keys.ErrNotNative},
		{"zero keys.Cond", byCustomer.Sort(keys.Cond{}), nil, query.ProblemSortKey, nil},
		{"zero AttrCond", byCustomer.SortAttr(query.AttrCond{}), nil, query.ProblemSortKey, nil},
		{"raw condition on the partition key", byCustomer.SortAttr(query.Attr("CustomerId").Eq(query.S("c1"))), nil, query.ProblemSortKey, nil},
		{"raw condition on a non-key attribute", byCustomer.SortAttr(query.Attr("Pad").Eq(query.S("x"))), nil, query.ProblemSortKey, nil},
		{"raw condition of the wrong type", byCustomer.SortAttr(query.Attr("OrderStatusDate").Gt(query.N(3))), nil, query.ProblemSortKey, nil},
		{"raw BETWEEN upside down", byCustomer.SortAttr(query.Attr("OrderStatusDate").Between(query.S("b"), query.S("a"))), nil, query.ProblemSortKey, nil},
		{"raw empty value", byCustomer.SortAttr(query.Attr("OrderStatusDate").Lt(query.S(""))), nil, query.ProblemSortKey, nil},
		{"raw value too long", byCustomer.SortAttr(query.Attr("OrderStatusDate").Le(query.S(strings.Repeat("x", 1025)))), nil, query.ProblemSortKey, nil},
		{"raw value not UTF-8", byCustomer.SortAttr(query.Attr("OrderStatusDate").Lt(query.S("x\xff"))), nil, query.ProblemSortKey, nil},
		{"raw upper bound not UTF-8", byCustomer.SortAttr(query.Attr("OrderStatusDate").Between(query.S("a"), query.S("b\xff"))), nil, query.ProblemSortKey, nil},
		{"begins_with prefix not UTF-8", byCustomer.SortAttr(query.Attr("OrderStatusDate").BeginsWith("C\xff")), nil, query.ProblemSortKey, nil},

		// Projection (more in TestPartialProjectionRefused), options, client.
		{"entity query on a KEYS_ONLY GSI: nothing to decode", query.Of(s.orders).Index("Keys").Partition(query.S("c1")), nil, query.ProblemProjection, nil},
		{"short cursor key", byCustomer, []func(*keyfirst.Options){keyfirst.WithCursorKey([]byte("short"))}, query.ProblemOption, nil},
		{"zero Query", query.Query[Order]{}, nil, query.ProblemSource, nil},
		{"nil entity", query.Of[Order](nil), nil, query.ProblemSource, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			check := func(call string, err error) {
				t.Helper()
				var qe *query.Error
				if !errors.As(err, &qe) || !errors.Is(err, query.ErrInvalidQuery) || qe.Problem != tt.problem {
					t.Fatalf("%s: got %v, want problem %q", call, err, tt.problem)
				}
				if tt.is != nil && !errors.Is(err, tt.is) {
					t.Fatalf("%s: %v does not match %v", call, err, tt.is)
				}
				if qe.Table == "" && tt.problem != query.ProblemSource {
					t.Fatalf("%s: the error names no table: %v", call, err)
				}
			}
			_, err := tt.q.Page(ctx, noCalls{T: t}, tt.opts...)
			check("Page", err)
			_, err = tt.q.Collect(ctx, noCalls{T: t}, tt.opts...)
			check("Collect", err)
			n := 0
			for _, err := range tt.q.All(ctx, noCalls{T: t}, tt.opts...) {
				n++
				check("All", err)
			}
			if n != 1 {
				t.Fatalf("All yielded %d times, want the error once", n)
			}
		})
	}

	// The same rules for a mixed collection and for number sort keys.
	mixed := []struct {
		name    string
		q       query.Query[any]
		problem query.Problem
	}{
		{"condition on a table without sort key", plain.Partition(query.S("p")).SortAttr(query.Attr("SK").Eq(query.S("x"))), query.ProblemSortKey},
		{"keys.Cond on a Number sort key", plain.Index("ByScore").Partition(query.S("b")).Sort(statusDate.With1(Cancelled).Ge(jul1)), query.ProblemSortKey},
		{"begins_with on a Number sort key", plain.Index("ByScore").Partition(query.S("b")).SortAttr(query.Attr("Score").BeginsWith("1")), query.ProblemSortKey},
		{"raw BETWEEN of numbers upside down", plain.Index("ByScore").Partition(query.S("b")).SortAttr(query.Attr("Score").Between(query.N(10), query.N(9.5))), query.ProblemSortKey},
		{"number above 1E+126", plain.Index("ByScore").Partition(query.S("b")).SortAttr(query.Attr("Score").Gt(query.N(1e200))), query.ProblemSortKey},
		{"number below 1E-130", plain.Index("ByScore").Partition(query.S("b")).SortAttr(query.Attr("Score").Lt(query.N(-1e-200))), query.ProblemSortKey},
		{"nil table", query.Collection(nil), query.ProblemSource},
	}
	for _, tt := range mixed {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.q.Page(context.Background(), noCalls{T: t})
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Problem != tt.problem {
				t.Fatalf("got %v, want problem %q", err, tt.problem)
			}
		})
	}

	t.Run("nil client", func(t *testing.T) {
		_, err := byCustomer.Page(context.Background(), nil)
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != query.ProblemClient {
			t.Fatalf("got %v", err)
		}
	})
}

// The raw conditions that are legal pass, with numbers compared as numbers.
func TestRawNumberConditions(t *testing.T) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "scores", PartitionKey: keyfirst.StringAttr("Board"), SortKey: keyfirst.NumberAttr("Score")})
	noErr(t, err)
	q := query.Collection(table).Partition(query.S("b"))
	for _, c := range []query.AttrCond{
		query.Attr("Score").Between(query.N(9.5), query.N(10)),
		query.Attr("Score").Between(query.N(-3), query.N(-3)),
		query.Attr("Score").Lt(query.N(uint64(math.MaxUint64))),
		query.Attr("Score").Eq(query.N(int8(-1))),
	} {
		client := &canned{}
		if _, err := q.SortAttr(c).Page(context.Background(), client); err != nil {
			t.Fatalf("%s %v: %v", c.Attr(), c.Op(), err)
		}
		if len(client.ins) != 1 || !slices.Contains(slices.Collect(maps.Values(client.ins[0].ExpressionAttributeNames)), "Score") {
			t.Fatalf("request %+v", client.ins)
		}
	}
}
