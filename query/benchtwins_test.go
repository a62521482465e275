package query_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/keyfirst/keyfirst/internal/wirebody"
	"github.com/keyfirst/keyfirst/query"
)

// TestBenchmarkTwinsAgree proves that every keyfirst variant of
// BenchmarkBuild and BenchmarkPage sends the request of its hand-written
// twin: both bodies, as the SDK serializes them and with their object
// keys sorted, are the same bytes.
func TestBenchmarkTwinsAgree(t *testing.T) {
	s := newShop(t, "shop")
	q, lo, hi := benchQuery(t, s)
	cond := benchCond(t)
	others, bounds := otherConds(t, q)
	variants := []struct {
		name   string
		q      query.Query[Order]
		lo, hi string
	}{
		{"keyfirst", q, lo, hi},
		{"keyfirst-on", onQuery(s, cond), lo, hi},
		{"keyfirst-new-condition/first", others[0], bounds[0][0], bounds[0][1]},
		{"keyfirst-new-condition/last", others[len(others)-1], bounds[len(bounds)-1][0], bounds[len(bounds)-1][1]},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			stub := &wirebody.Recorder{Keep: true}
			client := wirebody.Client(stub)
			ctx := context.Background()
			if _, err := v.q.Page(ctx, client); err != nil {
				t.Fatal(err)
			}
			if _, err := client.Query(ctx, handInput("shop", v.lo, v.hi)); err != nil {
				t.Fatal(err)
			}
			sentTheSame(t, stub)
		})
	}
}

// TestCollectTwinsAgree proves that BenchmarkCollect's twins do the same
// work: the same request bytes (as TestBenchmarkTwinsAgree compares them),
// and the same items from a response of 1,000.
func TestCollectTwinsAgree(t *testing.T) {
	s := newShop(t, "shop")
	cond, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(t, err)
	lo, hi := cond.Values()
	ctx := context.Background()

	stub := &wirebody.Recorder{Keep: true}
	client := wirebody.Client(stub)
	if _, err := collectQuery(s, cond).Collect(ctx, client); err != nil {
		t.Fatal(err)
	}
	if _, err := handCollect(ctx, client, s.orders, lo, hi); err != nil {
		t.Fatal(err)
	}
	sentTheSame(t, stub)

	canned := &canned{items: orderItems(t, s, ordersOf(1000)...)}
	got, err := collectQuery(s, cond).Collect(ctx, canned)
	noErr(t, err)
	want, err := handCollect(ctx, canned, s.orders, lo, hi)
	noErr(t, err)
	if len(got) != 1000 || !reflect.DeepEqual(got, want) {
		t.Fatalf("keyfirst collected %d items, the twin %d, or other items", len(got), len(want))
	}
}

// TestCollectGrowsOncePerResponse: Collect makes room for a response's
// items at once, so the slice of one response of 1,000 items is exactly
// that long (appending one by one leaves it larger).
func TestCollectGrowsOncePerResponse(t *testing.T) {
	s := newShop(t, "shop")
	client := &canned{items: orderItems(t, s, ordersOf(1000)...)}
	cond, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(t, err)
	out, err := query.On(s.orders, byStatusDate, "c1").Sort(cond).Collect(context.Background(), client)
	noErr(t, err)
	if len(out) != 1000 || cap(out) != 1000 {
		t.Fatalf("%d items in a slice of capacity %d, want 1000 in 1000", len(out), cap(out))
	}
}

// sentTheSame fails t unless stub kept exactly two requests, keyfirst's
// and then its hand-written twin's, with the same bytes once sorted.
func sentTheSame(t *testing.T, stub *wirebody.Recorder) {
	t.Helper()
	kept := stub.Bodies()
	if len(kept) != 2 {
		t.Fatalf("%d requests, want 2", len(kept))
	}
	mine, err := wirebody.Sorted(kept[0])
	noErr(t, err)
	hand, err := wirebody.Sorted(kept[1])
	noErr(t, err)
	if !bytes.Equal(mine, hand) {
		t.Fatalf("keyfirst sent\n%s\nthe hand-written twin\n%s", mine, hand)
	}
}
