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
	byCustomer := query.On(s.orders, byStatusDate, "c1")
	native := query.On(s.orders, byStatusDateNative, "c1")
	jul1 := micro("2019-07-01T00:00:00")
	threeSegments := keys.NewKey3(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro), keys.Uint[uint32](4))
	fourSegments := keys.NewKey4(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro), keys.Uint[uint32](4), keys.ID[string]())

	order := Order{CustomerID: "c1", ID: "o1", Status: Cancelled, Date: jul1}
	fromC1 := cursorOf(t, s, byCustomer, order)
	signed := cursorOf(t, s, byCustomer, order, keyfirst.WithCursorKey(key))
	tampered := []byte(signed)
	tampered[3] ^= 1 // a byte of the body, still valid base64url

	// A table without sort key, and indexes keyed by numbers.
	type player struct {
		ID     string  `dynamodbav:"Id"`
		Board  string  `dynamodbav:"Board"`
		Score  int     `dynamodbav:"Score"`
		Rating float64 `dynamodbav:"Rating"`
	}
	plainKey := keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.NoSort())
	byScore := keyfirst.OnIndex("ByScore", keyfirst.Str("Board"), keyfirst.Num[int]("Score"))
	byRating := keyfirst.OnIndex("ByRating", keyfirst.Num[float64]("Rating"), keyfirst.NoSort())
	noSortKey, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "plain", Key: plainKey, GSIs: []keyfirst.Index{byScore.Index(), byRating.Index()}})
	noErr(t, err)
	_, err = keyfirst.NewEntity(noSortKey, keyfirst.EntitySpec[player]{Type: "PLAYER",
		Keys: []keyfirst.Binding{plainKey.Fields("ID"), byScore.Fields("Board", "Score"), byRating.Fields("Rating")}})
	noErr(t, err)
	scores := query.CollectionOn(noSortKey, byScore, "b")

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
		{"empty begins_with prefix", query.On(s.orders, orderByID, "c1").SortAttr(query.Attr("SK").BeginsWith("")),
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
		{"cursor whose partition differs", query.On(s.orders, byStatusDate, "c2").After(fromC1),
			nil, query.ProblemCursor, query.ErrCursorPartition},
		{"garbage cursor", byCustomer.After("%%%"), nil, query.ProblemCursor, query.ErrCursorMalformed},
		{"huge cursor", byCustomer.After(query.Cursor(strings.Repeat("A", 1<<20))), nil, query.ProblemCursor, query.ErrCursorMalformed},

		// Index and partition: the pattern names the index and types the
		// partition key (a value of another type does not compile); what
		// is left is a pattern the entity does not bind (a mistyped index
		// name) and a value DynamoDB would refuse or change.
		{"mistyped index", query.On(s.orders, keyfirst.OnIndex("ByStatusDat", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate)), "c1"),
			nil, query.ProblemPattern, nil},
		{"empty partition value", query.On(s.orders, orderByID, ""), nil, query.ProblemPartition, nil},
		{"empty raw partition value", query.On(s.orders, byStatusDate, ""), nil, query.ProblemPartition, nil},
		{"partition value too long", query.On(s.orders, byStatusDate, strings.Repeat("x", 2049)), nil, query.ProblemPartition, nil},
		{"keys error in the partition value", query.On(s.orders, orderByID, "a#b"), nil, query.ProblemPartition, keys.ErrSeparator},
		{"partition value not UTF-8", query.On(s.orders, orderByID, "CUST#c\xff"), nil, query.ProblemPartition, nil},
		{"raw partition value not UTF-8", query.On(s.orders, byStatusDate, "c\xfd"), nil, query.ProblemPartition, nil},
		{"native part not UTF-8", query.On(s.orders, byCustomerStatus, keys.Of2("c\xfe", Pending)), nil, query.ProblemPartition, nil},
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
		{"entity query on a KEYS_ONLY GSI: nothing to decode", query.On(s.orders, keysOnly, "c1"), nil, query.ProblemProjection, nil},
		{"short cursor key", byCustomer, []func(*keyfirst.Options){keyfirst.WithCursorKey([]byte("short"))}, query.ProblemOption, nil},
		{"zero Query", query.Query[Order]{}, nil, query.ProblemSource, nil},
		{"nil entity", query.On((*keyfirst.Entity[Order])(nil), orderByID, "c1"), nil, query.ProblemSource, nil},
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
		{"condition on a table without sort key", query.CollectionOn(noSortKey, plainKey, "p").SortAttr(query.Attr("SK").Eq(query.S("x"))), query.ProblemSortKey},
		{"keys.Cond on a Number sort key", scores.Sort(statusDate.With1(Cancelled).Ge(jul1)), query.ProblemSortKey},
		{"begins_with on a Number sort key", scores.SortAttr(query.Attr("Score").BeginsWith("1")), query.ProblemSortKey},
		{"raw BETWEEN of numbers upside down", scores.SortAttr(query.Attr("Score").Between(query.N(10), query.N(9.5))), query.ProblemSortKey},
		{"number above 1E+126", scores.SortAttr(query.Attr("Score").Gt(query.N(1e200))), query.ProblemSortKey},
		{"number below 1E-130", scores.SortAttr(query.Attr("Score").Lt(query.N(-1e-200))), query.ProblemSortKey},
		{"NaN partition value", query.CollectionOn(noSortKey, byRating, math.NaN()), query.ProblemPartition},
		{"partition value above 1E+126", query.CollectionOn(noSortKey, byRating, 1e200), query.ProblemPartition},
		{"mistyped index", query.CollectionOn(noSortKey, keyfirst.OnIndex("ByScores", keyfirst.Str("Board"), keyfirst.Num[int]("Score")), "b"), query.ProblemPattern},
		{"nil table", query.CollectionOn(nil, orderByID, "c1"), query.ProblemSource},
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
	table, _ := newBoardScores(t)
	q := query.CollectionOn(table, scoreByBoard, "b")
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
