//go:build go1.25

// testing/synctest is Go 1.25's; the module says go 1.24, so this file
// states the version it needs.

package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// TestBudgetBoundsEveryWindow: a backfill on DynamoDB Local, run on a fake
// clock (testing/synctest: time passes only while every goroutine of the
// test sleeps, so a request takes no time and the clock reads the instant
// the budget released each write, however loaded the machine). The
// client takes 1 s per Scan page and 20 ms per write, on the fake clock,
// so that the segments pause as they do on AWS; half the items are up to
// date already, and a writer of the previous release changes orders meanwhile, so that writes are
// refused by their condition (charged, not reported). In every window of
// T seconds, the capacity of the writes sent in it (as DynamoDB Local
// reports it; a refused write: 1 WCU, as AWS bills one under 1 KB) is at
// most WCU*T + max(WCU/10, the largest write), the documented bound, and
// over the run at most WCU per second plus that burst.
func TestBudgetBoundsEveryWindow(t *testing.T) {
	t.Parallel()
	endpoint := resolved(t, integration.Shared(t).Endpoint)
	client, name := liveShop(t)
	old, cur := release(t, dateFirst, name), release(t, statusFirst, name)
	seeded := seedOrders(t, client, old, 240)
	var fresh []keyfirst.WriteRequest
	for i, o := range seeded {
		if i%2 == 0 {
			fresh = append(fresh, cur.orders.PutRequest(o))
		}
	}
	ctx, cancel := integration.Context(t)
	defer cancel()
	if err := cur.table.BatchWrite(ctx, client, fresh); err != nil {
		t.Fatal(err)
	}

	const budget = 40.0
	var (
		m       *meter
		report  *migrate.Report
		runErr  error
		elapsed time.Duration
		changes int
	)
	synctest.Test(t, func(t *testing.T) {
		bubble, closeBubble := bubbleClient(endpoint)
		defer closeBubble()
		m = &meter{Client: bubble, scanDelay: time.Second, writeDelay: 20 * time.Millisecond}
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // a writer of the previous release: its writes are not the backfill's
			defer wg.Done()
			r := rand.New(rand.NewPCG(7, 7))
			for {
				select {
				case <-done:
					return
				case <-time.After(50 * time.Millisecond):
				}
				o := seeded[r.IntN(len(seeded))]
				if _, err := old.orders.Modify(ctx, bubble, keyfirst.Must(old.orders.Key(o)), func(o *Order) {
					o.Total++

				}); err != nil {
					t.Error(err)
					return
				}
				changes++
			}
		}()
		start := time.Now()
		report, runErr = (&migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
			WCU: budget, Segments: 2, PageSize: 20}).Run(ctx, m)
		elapsed = time.Since(start)
		close(done)
		wg.Wait()
	})
	if runErr != nil {
		t.Fatal(runErr)
	}
	refused := 0
	for _, w := range m.writes {
		if w.refused {
			refused++
		}
	}
	t.Logf("%+v in %v (fake clock); %d writes, %d refused by their condition; %d concurrent changes; %.1f WCU reported",
		report.Counts, elapsed, len(m.writes), refused, changes, report.ConsumedWCU)
	if report.Changed < 100 || report.Conflicted == 0 || refused == 0 || !report.Checkpoint.Done() {
		t.Fatalf("want over 100 items changed and conflicts: %+v", report.Counts)
	}
	largest := 0.0
	for _, w := range m.writes {
		largest = max(largest, w.wcu)
	}
	burst := max(budget/10, largest)
	for _, window := range []time.Duration{100 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second} {
		peak, at := m.busiest(window)
		limit := budget*window.Seconds() + burst
		t.Logf("busiest %v: %.1f WCU at %v (%.1f WCU/s); the bound %.1f", window, peak, at, peak/window.Seconds(), limit)
		if peak > limit+1e-9 {
			t.Errorf("%.1f WCU in the %v from %v: over the budget's bound %.0f*%.1f + %.1f = %.1f",
				peak, window, at, budget, window.Seconds(), burst, limit)
		}
	}
	if total, limit := m.total(), budget*elapsed.Seconds()+burst; total > limit+1e-9 {
		t.Errorf("%.1f WCU over %v, the bound is %.1f", total, elapsed, limit)
	}
}

// resolved is endpoint with its host resolved to an address: a lookup
// inside a synctest bubble shares the resolver's state with the tests
// outside it, which the runtime refuses (a fatal error).
func resolved(t *testing.T, endpoint string) string {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	addrs, err := net.DefaultResolver.LookupHost(context.Background(), u.Hostname())
	if err != nil || len(addrs) == 0 {
		t.Fatalf("%s: %v", u.Hostname(), err)
	}
	addr := addrs[0]
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip != nil && ip.To4() != nil {
			addr = a // an IPv4 address first
			break
		}
	}
	u.Host = net.JoinHostPort(addr, u.Port())
	return u.String()
}

// bubbleClient is a client to DynamoDB Local (endpoint resolved) for a
// synctest bubble: a connection per request (an idle connection's reader
// is a goroutine blocked on the network, which would stop the fake
// clock), closed when done is called.
func bubbleClient(endpoint string) (*dynamodb.Client, func()) {
	tr := &http.Transport{DisableKeepAlives: true}
	return dynamodb.New(dynamodb.Options{Region: integration.Region, BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		HTTPClient:  &http.Client{Transport: tr}}), tr.CloseIdleConnections
}

// meter wraps a client: Scans and UpdateItems take the given time on the
// clock, and each UpdateItem is recorded with the instant it was sent and
// the capacity it consumed.
type meter struct {
	*dynamodb.Client
	scanDelay, writeDelay time.Duration
	mu                    sync.Mutex
	writes                []sent
}

type sent struct {
	at      time.Time
	wcu     float64
	refused bool
}

func (m *meter) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := m.Client.Scan(ctx, in, optFns...)
	time.Sleep(m.scanDelay)
	return out, err
}

func (m *meter) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	at := time.Now()
	out, err := m.Client.UpdateItem(ctx, in, optFns...)
	w := sent{at: at}
	var ccf *types.ConditionalCheckFailedException
	switch {
	case err == nil && out.ConsumedCapacity != nil:
		w.wcu = aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
	case errors.As(err, &ccf):
		w.wcu, w.refused = 1, true
	default:
		panic(fmt.Sprintf("UpdateItem: %v, no capacity reported", err))
	}
	m.mu.Lock()
	m.writes = append(m.writes, w)
	m.mu.Unlock()
	time.Sleep(m.writeDelay)
	return out, err
}

// busiest returns the most capacity the writes sent in one window of d
// consumed, and the window's start (a window starting at a write holds
// at least as much as any other).
func (m *meter) busiest(d time.Duration) (float64, time.Time) {
	ws := slices.Clone(m.writes)
	slices.SortFunc(ws, func(a, b sent) int { return a.at.Compare(b.at) })
	peak, at := 0.0, time.Time{}
	for i := range ws {
		sum := 0.0
		for _, w := range ws[i:] {
			if !w.at.Before(ws[i].at.Add(d)) {
				break
			}
			sum += w.wcu
		}
		if sum > peak {
			peak, at = sum, ws[i].at
		}
	}
	return peak, at
}

func (m *meter) total() float64 {
	sum := 0.0
	for _, w := range m.writes {
		sum += w.wcu
	}
	return sum
}
